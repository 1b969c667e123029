export type { Generated, Insertable, Kysely, Migration, Selectable, Updateable } from 'kysely';
export { sql } from 'kysely';
export * from './open-database';
