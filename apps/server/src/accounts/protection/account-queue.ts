/**
 * One account's changes, one after another within this instance, before they reach the database.
 * Each change holds the account's row (`for update`, account-row.ts) in a transaction, and a change
 * waiting for that row holds one of the instance's pool connections meanwhile: a burst of events
 * for one account (cidaas redelivering, a script guessing passwords) would otherwise take all ten,
 * and every page and `/readyz` would wait with them. Queued here, at most one connection per
 * account and instance waits on the row; the row lock still orders the instances among themselves.
 * Per database handle, so that each server (and each test's database) has its own queues.
 */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

export function oneAtATimePerAccount<T>(db: object, email: string, change: () => Promise<T>): Promise<T> {
  let byAccount = queues.get(db);
  if (!byAccount) {
    byAccount = new Map();
    queues.set(db, byAccount);
  }
  const previous = byAccount.get(email) ?? Promise.resolve();
  // The next change runs whatever became of this one; its failure is its caller's to see.
  const run = previous.then(change);
  const done = run.then(
    () => undefined,
    () => undefined,
  );
  byAccount.set(email, done);
  void done.then(() => {
    if (byAccount.get(email) === done) byAccount.delete(email);
  });
  return run;
}
