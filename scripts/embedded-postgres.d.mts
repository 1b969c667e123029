export function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  persistent?: boolean;
}): Promise<EmbeddedPostgres>;

export interface EmbeddedPostgres {
  url: string;
  /** Stops the server; its data goes too unless it was started `persistent`. */
  stop(): Promise<void>;
  /** Stops the server as a fast shutdown does (sessions are ended); the data stays. */
  stopServer(): Promise<void>;
  /** Starts it again on the same data and port. */
  startServer(): Promise<void>;
}

/**
 * For a launcher that stops everything itself on SIGINT and SIGTERM, PostgreSQL last: the package's
 * own signal hooks (which stop PostgreSQL and end the process) stand back from then on.
 */
export function leaveSignalsToCaller(): void;
