import type { ChildProcess } from 'node:child_process';
import type { EmbeddedPostgres } from './embedded-postgres.mjs';

export interface StackPorts {
  server: number;
  provider: number;
  propertyPortal: number;
  smtp: number;
  mail: number;
  /** The embedded PostgreSQL, when no DATABASE_URL is given. */
  postgres: number;
}

export interface StackUrls {
  portal: string;
  provider: string;
  propertyPortal: string;
  mail: string;
  smtp: string;
}

export interface Stack {
  urls: StackUrls;
  ports: StackPorts;
  stop(): Promise<void>;
  children: { name: string; child: ChildProcess; output(): string }[];
  /** The PostgreSQL both apps use (DATABASE_URL). */
  database: string;
}

export interface StackProcess {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Answers 2xx once the process is ready. */
  ready: string;
}

export interface Launched {
  ready: Promise<unknown>;
  /** Each process, with the end of what it printed (kept also when quiet). */
  children: { name: string; child: ChildProcess; output(): string }[];
  stop(): Promise<void>;
}

export const DEFAULT_PORTS: StackPorts;
/** The environment variable that moves each port of `npm start`. */
export const PORT_VARIABLES: Record<keyof StackPorts, string>;
export function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number;
/** Throws, naming the variable, unless the value is a port number. */
export function parsePort(name: string, value: string): number;
/** Throws when two of the ports, each with the variable that set it, are the same. */
export function refuseSharedPorts(ports: [string, number][]): void;
/** `npm start`'s ports: the defaults, each moved by its variable (PORT_VARIABLES). */
export function portsFromEnv(env?: NodeJS.ProcessEnv): StackPorts;
export function urlsFor(
  ports: Pick<StackPorts, 'provider' | 'propertyPortal' | 'mail' | 'smtp'>,
  portalPort: number,
): StackUrls;
export function prepareRun(
  options: {
    dataDir?: string;
    env?: Record<string, string>;
    extraProviderClients?: Record<string, unknown>[];
    throwAwayData?: boolean;
    embeddedDatabase?: boolean;
  },
  urls: StackUrls,
  ports: Pick<StackPorts, 'postgres'>,
): Promise<{ dataDir: string; env: NodeJS.ProcessEnv; postgres: EmbeddedPostgres | undefined }>;
/** `node` on an app's compiled main entry, or on `entry`, another compiled main of the app (absolute). */
export function nodeApp(app: string, entry?: string): { command: string; args: string[] };
export function mailCatcherProcess(ports: StackPorts, urls: StackUrls): StackProcess;
export function providerProcess(ports: StackPorts, urls: StackUrls): StackProcess;
export function propertyPortalProcess(ports: StackPorts, urls: StackUrls): StackProcess;
export function launch(
  processes: StackProcess[],
  sharedEnv: NodeJS.ProcessEnv,
  options?: { quiet?: boolean },
): Launched;
export function waitUntilReady(
  app: { name: string; ready: string },
  child: ChildProcess,
  timeoutMs?: number,
  /** The end of what the process printed, for the error when it exits while starting. */
  output?: () => string,
): Promise<void>;
/** A free port for each app, no two alike and none in `taken`, to which they are added. */
export function freePorts(taken?: Set<number>): Promise<StackPorts>;
export function startStack(options?: {
  ports?: StackPorts;
  dataDir?: string;
  env?: Record<string, string>;
  quiet?: boolean;
  /**
   * More provider clients beside one per tenant; the demo relying party's URIs are filled in, and a
   * client with a `subdomain` gets the hosted page URL `{portal}/login?subdomain=…` unless it brings one.
   */
  extraProviderClients?: Record<string, unknown>[];
  /** The run's data is thrown away afterwards: the embedded PostgreSQL may skip durable writes. */
  throwAwayData?: boolean;
  /** One more server on this port, on the same database, that reaches no provider (an outage). */
  providerAwayPort?: number;
}): Promise<Stack>;
