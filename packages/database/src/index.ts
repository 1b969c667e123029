export type { Kysely, Migration } from 'kysely';
export { sql } from 'kysely';
export * from './open-database';
