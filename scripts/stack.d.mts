import type { ChildProcess } from 'node:child_process';

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
  children: { name: string; child: ChildProcess }[];
  /** The PostgreSQL both apps use (DATABASE_URL). */
  database: string;
}

export const DEFAULT_PORTS: StackPorts;
export function freePort(): Promise<number>;
export function freePorts(): Promise<StackPorts>;
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
}): Promise<Stack>;
