import type { MigrationReport } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import { buildInfoOf } from './build-info';
import { loggableConfig, withoutPassword } from './loggable-config';

export interface StartFacts {
  config: ServerConfig;
  /** DATABASE_URL, which main.ts reads beside the configuration; logged without its password. */
  databaseUrl: string;
  migrations: MigrationReport;
}

/**
 * The one line every start logs (docs/operations.md, "Logs"): which build runs, which migrations the
 * schema had and which this start ran, and the configuration it runs with, every secret masked. During
 * a rollout it tells which instance runs what, and after an upgrade that the migrations ran.
 */
export function logStart(log: FastifyBaseLogger, { config, databaseUrl, migrations }: StartFacts): void {
  log.info(
    {
      build: buildInfoOf(config.buildCommit),
      migrations,
      config: { ...loggableConfig(config), databaseUrl: withoutPassword(databaseUrl) },
    },
    migrations.ran.length > 0
      ? `starting; migrations run now: ${migrations.ran.join(', ')}`
      : 'starting; no migration to run',
  );
}
