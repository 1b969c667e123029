import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccountProtection } from '../../test-support/protection-fixtures';
import { startTestServer } from '../../test-support/test-server';
import { CounterWatch } from './counter-watch';
import type { CounterReading } from './failed-login-counter';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const NONE: CounterReading = { counter: 0, isLockPending: false };

describe('CounterWatch', () => {
  it('reads the database once per round for every waiting page together', async () => {
    let statements = 0;
    const counted = server.db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const watch = new CounterWatch(counted, { pollMs: 100 });
    const pages = Array.from({ length: 300 }, (_, index) =>
      watch.wait(`waiting${index % 30}@example.ch`, NONE, (reading) => reading.counter > 0, 1000),
    );
    // One of the accounts moves while the pages wait: its pages are answered, the others run out.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await seedAccountProtection(server.db, 'waiting7@example.ch', { failures: 1 });
    const readings = await Promise.all(pages);
    expect(readings.filter((reading) => reading.counter === 1)).toHaveLength(10);
    expect(readings.filter((reading) => reading.counter === 0)).toHaveLength(290);
    // About ten rounds of 100 ms in one second, whatever the number of pages.
    expect(statements).toBeGreaterThanOrEqual(5);
    expect(statements).toBeLessThanOrEqual(15);
    watch.close();
  });

  it('answers at once what is settled already, and every waiting page at shutdown', async () => {
    const watch = new CounterWatch(server.db, { pollMs: 100 });
    expect(
      await watch.wait('settled@example.ch', { counter: 1, isLockPending: false }, () => true, 5000),
    ).toEqual({
      counter: 1,
      isLockPending: false,
    });
    const waiting = watch.wait('never@example.ch', NONE, () => false, 60_000);
    watch.close();
    expect(await waiting).toEqual(NONE);
  });
});
