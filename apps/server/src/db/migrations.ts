import type { Migration } from '@concierge/database';

export const SERVER_SCHEMA = 'concierge';

// Each feature appends its own migrations; names sort in the order they must run.
export const migrations: Record<string, Migration> = {
  '0001_rate_limits': {
    async up(db) {
      // Fixed windows per key (e.g. "counter:ip:1.2.3.4"), shared by every server instance.
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (column) => column.notNull())
        .addColumn('window_start', 'timestamptz', (column) => column.notNull())
        .addColumn('hits', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('rate_limits_pkey', ['key', 'window_start'])
        .execute();
      await db.schema
        .createIndex('rate_limits_window_start')
        .on('rate_limits')
        .column('window_start')
        .execute();
    },
  },
};
