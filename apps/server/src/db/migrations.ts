import type { Migration } from '@concierge/database';

export const SERVER_SCHEMA = 'concierge';

// The server's tables (registration codes, failed-login counters, webhook dedupe, outbox) arrive
// with the features that own them; the schema and the migration runner are in place from the start.
export const migrations: Record<string, Migration> = {};
