import type { Plugin } from 'esbuild';

export interface NodeApp {
  name: string;
  /** The workspace folder, e.g. apps/server. */
  folder: string;
  /** Source → compiled file, relative to the repository root; the first is the app's main entry. */
  entries: { source: string; output: string }[];
  /** Flags for `node` when the app's main entry is started. */
  nodeOptions: string[];
}

export const SERVER_NODE_OPTIONS: string[];
export const NODE_APPS: NodeApp[];
/**
 * The arguments for `node` that start an app's compiled main entry (absolute path), flags first;
 * `entry` is another compiled main of the app (absolute), e.g. a variant of buildVariant.
 */
export function nodeArguments(name: string, entry?: string): string[];
/** The compiled main entry of an app, an absolute path (apps/<app>/dist/main.js). */
export function compiledMain(name: string): string;
/** The apps whose bundles are missing or older than a source they may contain. */
export function staleNodeApps(names?: string[]): string[];
/** The newest modification time under a path, node_modules and dist left out. */
export function newestMtime(path: string): number;
/** Builds the named apps (default: all), or only the stale ones among them; gives back the names built. */
export function buildNodeApps(options?: {
  apps?: string[];
  ifStale?: boolean;
  quiet?: boolean;
}): Promise<string[]>;
/**
 * Builds a variant of an app: its entries with the apps' esbuild options, to outputs of the caller's
 * (one folder below the app, as dist/), with the caller's esbuild plugins before ours.
 */
export function buildVariant(
  entries: { source: string; output: string }[],
  options?: { plugins?: Plugin[]; quiet?: boolean },
): Promise<void>;
