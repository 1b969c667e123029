export function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  persistent?: boolean;
}): Promise<{ url: string; stop(): Promise<void> }>;
