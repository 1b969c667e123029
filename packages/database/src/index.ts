export type {
  Generated,
  Insertable,
  Kysely,
  LogEvent,
  Migration,
  QueryCreator,
  Selectable,
  Updateable,
} from 'kysely';
export { sql } from 'kysely';
export * from './availability';
export * from './describe-error';
export * from './open-database';
export { prepared } from './prepared-statements';
export * from './retry-delay';
export * from './test-errors';
