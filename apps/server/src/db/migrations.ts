import { type Migration, sql } from '@concierge/database';

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
  '0100_registration': {
    async up(db) {
      // A registration code is claimed (unused → pending) before the provider is asked, so that one
      // code yields at most one identity (ARCHITECTURE "Registration").
      await db.schema
        .createTable('registration_codes')
        .addColumn('code', 'text', (column) => column.primaryKey())
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) =>
          column.notNull().check(sql`status in ('unused', 'pending', 'used', 'revoked')`),
        )
        .addColumn('claimed_email', 'text')
        .addColumn('claimed_at', 'timestamptz')
        // The registration's language, so that the reconciler writes its e-mail in that language.
        .addColumn('claimed_language', 'text')
        .addColumn('sub', 'text')
        .addColumn('used_at', 'timestamptz')
        .addColumn('revoked_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('registration_codes_tenant_status')
        .on('registration_codes')
        .columns(['tenant', 'status', 'created_at'])
        .execute();
      // One e-mail holds at most one claimed or used code: the database refuses a second
      // registration of an address even when two arrive at the same moment with different codes.
      await db.schema
        .createIndex('registration_codes_claimed_email')
        .on('registration_codes')
        .column('claimed_email')
        .unique()
        .where(sql<boolean>`status in ('pending', 'used')`)
        .execute();
      await db.schema
        .createIndex('registration_codes_pending')
        .on('registration_codes')
        .column('claimed_at')
        .where(sql<boolean>`status = 'pending'`)
        .execute();

      await db.schema
        .createTable('invitations')
        .addColumn('id', 'uuid', (column) => column.primaryKey())
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('code', 'text', (column) =>
          column.notNull().unique().references('registration_codes.code'),
        )
        .addColumn('language', 'text', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .addColumn('revoked_at', 'timestamptz')
        .execute();
      await db.schema
        .createIndex('invitations_tenant_created_at')
        .on('invitations')
        .columns(['tenant', 'created_at'])
        .execute();

      // An activation link's verification id is a secret: only its SHA-256 is kept.
      await db.schema
        .createTable('activations')
        .addColumn('id', 'uuid', (column) => column.primaryKey())
        .addColumn('verification_hash', 'text', (column) => column.notNull().unique())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('sub', 'text', (column) => column.notNull())
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('language', 'text', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
        .addColumn('used_at', 'timestamptz')
        .addColumn('voided_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('activations_email').on('activations').column('email').execute();
    },
  },
  '0101_mail_outbox': {
    async up(db) {
      // E-mails are written in the transaction of the change they report and sent afterwards by the
      // outbox worker, so that a change never happens without its e-mail, nor the other way round.
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'uuid', (column) => column.primaryKey())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('recipient', 'text', (column) => column.notNull())
        .addColumn('subject', 'text', (column) => column.notNull())
        .addColumn('html', 'text', (column) => column.notNull())
        .addColumn('text', 'text', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        // Null once sent or given up: only rows with a time here are ever picked up.
        .addColumn('next_attempt_at', 'timestamptz')
        .addColumn('sent_at', 'timestamptz')
        .addColumn('last_error', 'text')
        .execute();
      await db.schema
        .createIndex('mail_outbox_due')
        .on('mail_outbox')
        .column('next_attempt_at')
        .where(sql<boolean>`sent_at is null`)
        .execute();
      await db.schema.createIndex('mail_outbox_created_at').on('mail_outbox').column('created_at').execute();
    },
  },
  '0200_failed_login_counters': {
    async up(db) {
      // The mirror of the provider's failed-login count that the login page reads (spec §4).
      await db.schema
        .createTable('failed_login_counters')
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('counter', 'integer', (column) => column.notNull())
        .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
        .addPrimaryKeyConstraint('failed_login_counters_pkey', ['tenant', 'email'])
        .execute();
      // Resets and locks apply to an e-mail in every tenant.
      await db.schema
        .createIndex('failed_login_counters_email')
        .on('failed_login_counters')
        .column('email')
        .execute();
      // Webhook delivery is at least once: an event id is applied once.
      await db.schema
        .createTable('processed_webhook_events')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('received_at', 'timestamptz', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('processed_webhook_events_received_at')
        .on('processed_webhook_events')
        .column('received_at')
        .execute();
    },
  },
  '0201_password_reset_requests': {
    async up(db) {
      // Binds a reset link (by its request id's hash) to the e-mail it was started for, so that the
      // unlock after the new password applies to that account and not to one named by the browser.
      await db.schema
        .createTable('password_reset_requests')
        .addColumn('rprq_hash', 'text', (column) => column.primaryKey())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('password_reset_requests_created_at')
        .on('password_reset_requests')
        .column('created_at')
        .execute();
    },
  },
  '0300_account_locks': {
    async up(db) {
      // Concierge's own lock at the provider after the third failure (spec §4): asked for in the
      // webhook's transaction, applied at the provider afterwards (and retried until it is), lifted
      // by a completed reset. Only a lock recorded here is Concierge's to lift.
      await db.schema
        .createTable('account_locks')
        .addColumn('email', 'text', (column) => column.primaryKey())
        .addColumn('sub', 'text')
        .addColumn('state', 'text', (column) => column.notNull().check(sql`state in ('pending', 'locked')`))
        .addColumn('requested_at', 'timestamptz', (column) => column.notNull())
        .addColumn('locked_at', 'timestamptz')
        .execute();
      await db.schema
        .createIndex('account_locks_pending')
        .on('account_locks')
        .column('requested_at')
        .where(sql<boolean>`state = 'pending'`)
        .execute();
    },
  },
  '0301_sign_in_requests': {
    async up(db) {
      // Which tenant a provider request id was served for: cidaas sends a failed sign-in back with
      // the request id but without the subdomain, and the page must keep the tenant's brand.
      await db.schema
        .createTable('sign_in_requests')
        .addColumn('request_id', 'text', (column) => column.primaryKey())
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_requests_created_at')
        .on('sign_in_requests')
        .column('created_at')
        .execute();
    },
  },
  '0302_reset_accept_unknown': {
    async up(db) {
      // When the provider's answer to a reset accept was lost: a retry of the same link then meets
      // "link used" (cidaas 10002), and that is the earlier attempt's success, not a bad link.
      await db.schema
        .alterTable('password_reset_requests')
        .addColumn('accept_unknown_at', 'timestamptz')
        .execute();
    },
  },
  '0400_account_protection': {
    async up(db) {
      // The failed-login count and Concierge's lock, per account instead of per tenant (issue "The
      // lock holds"): failures are rows at their event's own time, so that a late success or a
      // redelivered reset clears only what came before it.
      await db.schema
        .createTable('account_protection')
        .addColumn('email', 'text', (column) => column.primaryKey())
        .addColumn('sub', 'text')
        .addColumn('counted_since', 'timestamptz', (column) => column.notNull())
        .addColumn('lock_state', 'text', (column) =>
          column.notNull().check(sql`lock_state in ('none', 'requested', 'locked')`),
        )
        .addColumn('lock_requested_at', 'timestamptz')
        .addColumn('locked_at', 'timestamptz')
        .addColumn('lock_is_ours', 'boolean', (column) => column.notNull())
        .addColumn('lock_attempt_unknown', 'boolean', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('account_protection_requested')
        .on('account_protection')
        .column('lock_requested_at')
        .where(sql<boolean>`lock_state = 'requested'`)
        .execute();
      await db.schema
        .createTable('account_failures')
        .addColumn('event_key', 'text', (column) => column.primaryKey())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('occurred_at', 'timestamptz', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('account_failures_email_occurred_at')
        .on('account_failures')
        .columns(['email', 'occurred_at'])
        .execute();
      // What the per-tenant tables held: a lock (pending or set) stays one, and every account keeps
      // as many failures as its tenants counted together, at the time they were last counted.
      await sql`
        insert into account_protection
          (email, sub, counted_since, lock_state, lock_requested_at, locked_at, lock_is_ours, lock_attempt_unknown)
        select email, sub, 'epoch', case state when 'locked' then 'locked' else 'requested' end,
               requested_at, locked_at, state = 'locked', state = 'pending'
        from account_locks`.execute(db);
      await sql`
        insert into account_failures (event_key, email, tenant, occurred_at)
        select 'migrated:' || tenant || ':' || email || ':' || n, email, tenant, updated_at
        from failed_login_counters, generate_series(1, least(counter, 3)) as n
        where counter > 0`.execute(db);
      await sql`
        insert into account_protection
          (email, counted_since, lock_state, lock_is_ours, lock_attempt_unknown)
        select distinct email, 'epoch'::timestamptz, 'none', false, false from account_failures
        on conflict (email) do nothing`.execute(db);
      await db.schema.dropTable('account_locks').execute();
      await db.schema.dropTable('failed_login_counters').execute();
    },
  },
  '0500_admin_audit': {
    async up(db) {
      // One row per change made through the admin API, written in the change's own transaction
      // (admin/audit-log.ts). The identity orders the rows and is the listing's page cursor. No
      // check on `action`: a later release's new action then needs no migration.
      await db.schema
        .createTable('admin_audit')
        .addColumn('id', 'bigint', (column) => column.generatedAlwaysAsIdentity().primaryKey())
        .addColumn('at', 'timestamptz', (column) => column.notNull())
        .addColumn('token_fingerprint', 'text', (column) => column.notNull())
        .addColumn('request_id', 'text', (column) => column.notNull())
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('tenant', 'text')
        .addColumn('target', 'text')
        .addColumn('amount', 'integer')
        .addColumn('outcome', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('admin_audit_tenant_id')
        .on('admin_audit')
        .columns(['tenant', 'id'])
        .execute();
      await db.schema.createIndex('admin_audit_at').on('admin_audit').column('at').execute();
    },
  },
  '0600_code_batches': {
    async up(db) {
      // Issue 30: codes made for the units of one building, so that an office sees which flat has
      // registered. A code keeps its letter's unit, name and language, and its own expiry (the
      // batch's, copied when it is made): the claim checks it on the code's row alone, in the same
      // conditional update (accounts/registration-codes.ts). Codes without a batch stay as they were.
      await db.schema
        .createTable('code_batches')
        .addColumn('id', 'uuid', (column) => column.primaryKey())
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('building', 'text', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .addColumn('expires_at', 'timestamptz')
        .addColumn('revoked_at', 'timestamptz')
        .execute();
      await db.schema
        .createIndex('code_batches_tenant_created_at')
        .on('code_batches')
        .columns(['tenant', 'created_at'])
        .execute();
      await db.schema
        .alterTable('registration_codes')
        .addColumn('batch_id', 'uuid', (column) => column.references('code_batches.id'))
        .addColumn('unit', 'text')
        .addColumn('recipient_name', 'text')
        .addColumn('letter_language', 'text')
        .addColumn('expires_at', 'timestamptz')
        .execute();
      await db.schema
        .alterTable('registration_codes')
        .addCheckConstraint('registration_codes_unit_of_batch', sql`batch_id is null or unit is not null`)
        .execute();
      // A batch's codes in the order of their units, and one code per unit of a batch.
      await db.schema
        .createIndex('registration_codes_batch_unit')
        .on('registration_codes')
        .columns(['batch_id', 'unit'])
        .unique()
        .where(sql<boolean>`batch_id is not null`)
        .execute();
      // When the account last proved active (accounts/protection/sign-in-events.ts, reset-unlock.ts):
      // the office sees a letter's flat as activated, not only registered. Null for the rows before.
      await db.schema.alterTable('account_protection').addColumn('seen_active_at', 'timestamptz').execute();
    },
  },
  '0700_invitations_lifecycle': {
    async up(db) {
      // Issue 30: the invitee of a withdrawn or expired invitation asks for a new one from its link
      // (registration/new-invitation-request.ts): at most one request per invitation, so a repeat
      // changes nothing. The office lists a tenant's open ones. An invitation expires with its code
      // (registration_codes.expires_at, checked in the claim), so it needs no column of its own.
      await db.schema
        .createTable('invitation_requests')
        .addColumn('id', 'uuid', (column) => column.primaryKey())
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('invitation_id', 'uuid', (column) =>
          column.notNull().unique().references('invitations.id'),
        )
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .addColumn('handled_at', 'timestamptz')
        .execute();
      await db.schema
        .createIndex('invitation_requests_open')
        .on('invitation_requests')
        .columns(['tenant', 'created_at'])
        .where(sql<boolean>`handled_at is null`)
        .execute();
      // A person's invitations of a tenant: a new one voids the open one (admin/invitations-admin.ts).
      await db.schema
        .createIndex('invitations_tenant_email')
        .on('invitations')
        .columns(['tenant', 'email'])
        .execute();
    },
  },
  '0800_console': {
    async up(db) {
      // Issue 30: the console's people change what the admin token changes; the audit log says who.
      // A row names a token or a console user, never neither.
      await db.schema
        .alterTable('admin_audit')
        .alterColumn('token_fingerprint', (column) => column.dropNotNull())
        .execute();
      await db.schema.alterTable('admin_audit').addColumn('user_email', 'text').execute();
      await db.schema.alterTable('admin_audit').addColumn('user_sub', 'text').execute();
      await sql`alter table admin_audit add constraint admin_audit_actor
        check (token_fingerprint is not null or user_sub is not null)`.execute(db);
      // A sign-in on its way through the provider: what the return must match (state, nonce, PKCE
      // verifier), used once (console/console-sign-in.ts). Kept by the hash of its state.
      await db.schema
        .createTable('console_sign_ins')
        .addColumn('state_hash', 'text', (column) => column.primaryKey())
        .addColumn('code_verifier', 'text', (column) => column.notNull())
        .addColumn('nonce', 'text', (column) => column.notNull())
        .addColumn('language', 'text', (column) => column.notNull())
        // The hash of a random value in the starting browser's cookie: the return counts only there.
        .addColumn('browser_hash', 'text', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .execute();
      // A signed-in console user (console/console-sessions.ts), kept by the hash of the cookie's
      // value, so that a copy of this table opens no session. What the provider said of their roles
      // is read at sign-in and kept for the session's life.
      await db.schema
        .createTable('console_sessions')
        .addColumn('id_hash', 'text', (column) => column.primaryKey())
        .addColumn('sub', 'text', (column) => column.notNull())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('name', 'text')
        .addColumn('role', 'text', (column) => column.notNull().check(sql`role in ('operator', 'manager')`))
        .addColumn('tenants', sql`text[]`, (column) => column.notNull())
        .addColumn('csrf_token', 'text', (column) => column.notNull())
        .addColumn('language', 'text', (column) => column.notNull())
        // The ID token, for the provider's sign-out (its id_token_hint) when the user signs out.
        .addColumn('id_token', 'text')
        .addColumn('flash', 'jsonb')
        .addColumn('created_at', 'timestamptz', (column) => column.notNull())
        .addColumn('last_seen_at', 'timestamptz', (column) => column.notNull())
        .execute();
    },
  },
  '0810_tenant_brands': {
    async up(db) {
      // Issue 30: a tenant's brand as the console edits it (admin/brand-drafts.ts) — the editable
      // part of a registry entry; the file stays the source of the tenant itself. One table, a row per
      // revision: a draft is a revision not yet published, and publishing flips its state, so what
      // goes live is byte for byte what was previewed and nothing is copied. Published rows are kept
      // (the newest per tenant is in use; the others are its history). Revisions come from one
      // sequence, drafts and published alike, so a revision number names one content for good, also
      // after a draft was discarded: the preview and publish refer to it. The partial unique index keeps at most one draft per tenant. Contact and
      // flags are JSON as the registry file holds them, checked by its schemas on the way in and out;
      // the logo is its bytes (at most 512 KiB), the stylesheet its text (at most 64 KiB).
      await db.schema
        .createTable('tenant_brands')
        .addColumn('tenant', 'text', (column) => column.notNull())
        .addColumn('revision', 'integer', (column) => column.notNull().check(sql`revision > 0`))
        .addColumn('state', 'text', (column) => column.notNull().check(sql`state in ('draft', 'published')`))
        .addColumn('display_name', 'text', (column) => column.notNull())
        .addColumn('primary_color', 'text', (column) => column.notNull())
        .addColumn('theme_preset', 'text', (column) => column.notNull())
        .addColumn('logo', 'bytea', (column) => column.notNull().check(sql`octet_length(logo) <= 524288`))
        .addColumn('logo_type', 'text', (column) =>
          column.notNull().check(sql`logo_type in ('image/svg+xml', 'image/png', 'image/jpeg')`),
        )
        .addColumn('stylesheet', 'text', (column) => column.check(sql`octet_length(stylesheet) <= 65536`))
        .addColumn('contact', 'jsonb')
        .addColumn('flags', 'jsonb', (column) => column.notNull())
        .addColumn('saved_by', 'text', (column) => column.notNull())
        .addColumn('saved_at', 'timestamptz', (column) => column.notNull())
        .addColumn('published_at', 'timestamptz')
        .addPrimaryKeyConstraint('tenant_brands_pkey', ['tenant', 'revision'])
        .addCheckConstraint(
          'tenant_brands_published_at',
          sql`(state = 'published') = (published_at is not null)`,
        )
        .execute();
      await db.schema
        .createIndex('tenant_brands_one_draft')
        .on('tenant_brands')
        .column('tenant')
        .unique()
        .where(sql<boolean>`state = 'draft'`)
        .execute();
      await sql`create sequence tenant_brand_revisions`.execute(db);
    },
  },
};
