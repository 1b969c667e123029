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
    startMessage(migrations),
  );
}

function startMessage({ ran, newer }: MigrationReport): string {
  if (newer.length > 0) {
    // A rollback, or an older instance during a rollout: it works on the newer schema (migrations add).
    return `starting without migrating: the schema has migrations of a newer build (${newer.join(', ')})`;
  }
  return ran.length > 0 ? `starting; migrations run now: ${ran.join(', ')}` : 'starting; no migration to run';
}
