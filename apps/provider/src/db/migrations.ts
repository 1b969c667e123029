import { type Migration, sql } from '@concierge/database';

export const migrations: Record<string, Migration> = {
  '0001_users': {
    async up(db) {
      await db.schema
        .createTable('users')
        .addColumn('sub', 'text', (column) => column.primaryKey())
        // Stored normalised (trimmed, lower case), so the unique constraint is case-insensitive in effect.
        .addColumn('email', 'text', (column) => column.notNull().unique())
        .addColumn('password_hash', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) =>
          column.notNull().check(sql`status in ('PENDING', 'VERIFIED', 'DECLINED')`),
        )
        .addColumn('given_name', 'text')
        .addColumn('family_name', 'text')
        .addColumn('locale', 'text')
        .addColumn('mobile_number', 'text')
        .addColumn('roles', 'jsonb', (column) => column.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0002_oidc_payloads': {
    async up(db) {
      // Everything oidc-provider persists (sessions, interactions, codes, tokens, grants) in one table.
      await db.schema
        .createTable('oidc_payloads')
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('id', 'text', (column) => column.notNull())
        .addColumn('payload', 'jsonb', (column) => column.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('user_code', 'text')
        .addColumn('uid', 'text')
        .addColumn('expires_at', 'timestamptz')
        .addColumn('consumed_at', 'timestamptz')
        .addPrimaryKeyConstraint('oidc_payloads_pkey', ['kind', 'id'])
        .execute();
      await db.schema.createIndex('oidc_payloads_grant_id').on('oidc_payloads').column('grant_id').execute();
      await db.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').column('uid').execute();
      await db.schema
        .createIndex('oidc_payloads_user_code')
        .on('oidc_payloads')
        .column('user_code')
        .execute();
      await db.schema
        .createIndex('oidc_payloads_expires_at')
        .on('oidc_payloads')
        .column('expires_at')
        .execute();
    },
  },
  '0003_provider_keys': {
    async up(db) {
      // Signing keys and cookie keys made on first start, so tokens and sessions survive a restart.
      await db.schema
        .createTable('provider_keys')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('value', 'jsonb', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
};
