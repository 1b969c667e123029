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
  '0004_failed_login_attempts': {
    async up(db) {
      await db.schema
        .alterTable('users')
        .addColumn('failed_login_attempts', 'integer', (column) =>
          column.notNull().defaultTo(0).check(sql`failed_login_attempts >= 0`),
        )
        .execute();
    },
  },
  '0005_outboxes': {
    async up(db) {
      // Two tables of one shape: webhook events to the server and e-mails to the SMTP relay.
      for (const table of ['webhook_outbox', 'mail_outbox']) {
        await db.schema
          .createTable(table)
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('payload', 'jsonb', (column) => column.notNull())
          .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
          .addColumn('delivered_at', 'timestamptz')
          .addColumn('given_up_at', 'timestamptz')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
          .execute();
        // The relay only ever looks for pending rows that are due.
        await db.schema
          .createIndex(`${table}_pending`)
          .on(table)
          .column('next_attempt_at')
          .where(sql.ref('delivered_at'), 'is', null)
          .where(sql.ref('given_up_at'), 'is', null)
          .execute();
      }
    },
  },
  '0006_password_reset_requests': {
    async up(db) {
      await db.schema
        .createTable('password_reset_requests')
        .addColumn('rprq', 'text', (column) => column.primaryKey())
        .addColumn('exchange_id_hash', 'text', (column) => column.notNull())
        .addColumn('sub', 'text', (column) => column.notNull().references('users.sub').onDelete('cascade'))
        .addColumn('request_id', 'text', (column) => column.notNull())
        .addColumn('client_id', 'text')
        .addColumn('subdomain', 'text')
        .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
        .addColumn('used_at', 'timestamptz')
        .execute();
      // The rate limit counts a user's recent requests.
      await db.schema
        .createIndex('password_reset_requests_sub_created_at')
        .on('password_reset_requests')
        .columns(['sub', 'created_at'])
        .execute();
    },
  },
  '0007_email_verified_and_blocked': {
    async up(db) {
      // Users made before this migration could only sign in once activated: their e-mail counts as
      // verified. No default afterwards, so that every insert says what it knows.
      await db.schema
        .alterTable('users')
        .addColumn('email_verified', 'boolean', (column) => column.notNull().defaultTo(true))
        .execute();
      await db.schema
        .alterTable('users')
        .alterColumn('email_verified', (column) => column.dropDefault())
        .execute();
      // The unnamed column check of 0001 is called users_status_check by PostgreSQL.
      await db.schema.alterTable('users').dropConstraint('users_status_check').execute();
      await db.schema
        .alterTable('users')
        .addCheckConstraint(
          'users_status_check',
          sql`status in ('PENDING', 'VERIFIED', 'DECLINED', 'BLOCKED')`,
        )
        .execute();
    },
  },
  '0008_login_limits': {
    async up(db) {
      // Failed sign-in counts in fixed windows (users/login-limits.ts): per client IP, per request id,
      // and of all accounts (the alarm). One row per key and window, bumped by one atomic upsert.
      await db.schema
        .createTable('login_limits')
        .addColumn('key', 'text', (column) => column.notNull())
        .addColumn('window_start', 'timestamptz', (column) => column.notNull())
        .addColumn('hits', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('login_limits_pkey', ['key', 'window_start'])
        .execute();
      await db.schema
        .createIndex('login_limits_window_start')
        .on('login_limits')
        .column('window_start')
        .execute();
    },
  },
  '0009_payloads_by_account': {
    async up(db) {
      // A completed reset revokes everything of one account (oidc/adapter.ts revokeAccountPayloads):
      // found by the payload's accountId, without scanning every session and token.
      await sql`create index oidc_payloads_account on oidc_payloads ((payload->>'accountId'))`.execute(db);
    },
  },
  '0010_user_groups': {
    async up(db) {
      // The console's property managers manage the tenants their groups name (issue 30).
      await db.schema
        .alterTable('users')
        .addColumn('groups', 'jsonb', (column) => column.notNull().defaultTo(sql`'[]'::jsonb`))
        .execute();
    },
  },
};
