import { randomUUID } from 'node:crypto';
import type { PageSignInRequest } from '@concierge/contracts';
import { type Database, openTestDatabase } from '@concierge/database';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations, SERVER_SCHEMA } from '../db/migrations';
import type { ServerTables } from '../db/schema';
import { SignInRequests } from './sign-in-requests';

let database: Database<ServerTables>;
beforeAll(async () => {
  database = await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations);
});
afterAll(() => database?.close());

const confirmed = (requestId: string) => ({ requestId, clientInfo: {} }) as PageSignInRequest;

// Two instances each keep their own memory of what they wrote: the table alone decides.
it('keeps the tenant first seen with a request id, whichever instance sees it again', async () => {
  const requestId = randomUUID();
  await new SignInRequests(database.db).remember(confirmed(requestId), 'demo');
  const other = new SignInRequests(database.db);
  await other.remember(confirmed(requestId), 'lacleman');
  expect(await other.tenantOf(requestId)).toBe('demo');
});

it('writes nothing for an id that is no request id', async () => {
  const requests = new SignInRequests(database.db);
  await requests.remember(confirmed("x'); drop table sign_in_requests; --"), 'demo');
  const rows = await database.db
    .selectFrom('sign_in_requests')
    .select('request_id')
    .where('request_id', 'like', 'x%')
    .execute();
  expect(rows).toEqual([]);
});
