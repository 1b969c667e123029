import type { ChildProcess } from 'node:child_process';
import type { EmbeddedPostgres } from './embedded-postgres.mjs';
import type { Stack, StackPorts } from './stack.mjs';

export interface ClusterPorts extends StackPorts {
  /** nginx, the portal's address. */
  balancer: number;
  /** One per server instance. */
  instances: number[];
  /** Each instance's metrics port, in the same order. */
  metrics: number[];
}

export interface ClusterInstance {
  name: string;
  port: number;
  /** The instance itself, beside nginx. */
  url: string;
  metricsUrl: string;
  /** The compiled main it runs (absolute): the server's dist/main.js until a restart starts another. */
  entry: string;
  child: ChildProcess | undefined;
}

/** What a server logs as it starts (docs/operations.md, "Logs"), as its JSON log line has it. */
export interface StartLine {
  msg: string;
  build: { version: string; commit: string; node: string };
  /** The migrations the schema had, those this start ran, and those of a newer build it found. */
  migrations: { applied: string[]; ran: string[]; newer: string[] };
  /** Every setting, each secret masked as `***`. */
  config: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Cluster extends Stack {
  ports: ClusterPorts;
  instances: ClusterInstance[];
  balancer: { url: string; configFile: string; accessLog: string };
  /** The tenant registry every instance reads (and watches: a change takes effect without a restart). */
  tenantsFile: string;
  /**
   * Stops one instance with SIGTERM (it drains; one already stopped is only started), starts it
   * again and waits for its /readyz; from then on with `env` added to its configuration and, given
   * `entry`, running that compiled main (another build of the server, e.g. buildVariant's). Resolves
   * to its start line when its LOG_LEVEL shows it (info or lower), otherwise to undefined.
   */
  restartInstance(
    index: number,
    change?: { env?: Record<string, string>; entry?: string },
  ): Promise<StartLine | undefined>;
  /** The embedded PostgreSQL; undefined when DATABASE_URL named another. */
  postgres: EmbeddedPostgres | undefined;
}

export const DEFAULT_CLUSTER_PORTS: ClusterPorts;
/** nginx's fail_timeout: how long a restarted instance stays out; a rolling restart waits it. */
export const NGINX_FAIL_TIMEOUT_SECONDS: number;
export function freeClusterPorts(count?: number): Promise<ClusterPorts>;
/** `npm run cluster`'s ports: portsFromEnv's, with CLUSTER_INSTANCE_PORTS and CLUSTER_METRICS_PORTS. */
export function clusterPortsFromEnv(env?: NodeJS.ProcessEnv): ClusterPorts;
export function nginxConfig(values: { runDir: string; listen: string; instances: string[] }): string;
export function startCluster(options?: {
  ports?: ClusterPorts;
  dataDir?: string;
  env?: Record<string, string>;
  quiet?: boolean;
  extraProviderClients?: Record<string, unknown>[];
  throwAwayData?: boolean;
  /** Start the embedded PostgreSQL even when DATABASE_URL is set (a test that stops it). */
  embeddedDatabase?: boolean;
  /** SHUTDOWN_DRAIN_SECONDS of the instances (default 2). */
  drainSeconds?: number;
}): Promise<Cluster>;
