// Pages waiting for their failed-login count beside /login: `GET /user-login-failed-counter?…&after=N`
// waits up to 5 s for the count to move past N, and the server answers every waiting page of an
// instance from one shared database poll (apps/server/src/accounts/protection/counter-watch.ts).
// /login's median is measured idle, then again while WAITERS such requests are held open, each
// re-sent as soon as it is answered; the ratio says what waiting pages cost the pages being served.
// Only ever 127.0.0.1, a fixed number of requests for a bounded time.
import { Agent, request } from 'node:http';
import { load, warmUp } from './load.mjs';
import { percentile } from './sign-in.mjs';

export const WAITERS = 300;
/** How long the server holds a page whose count does not move (EVENT_WAIT_MS in routes/failed-login-counter.ts). */
export const SERVER_WAIT_MS = 5000;
/** An answer sooner than this did not wait: a refusal (429) or a count that moved. */
const WAITED_MS = 4500;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds WAITERS counter requests open until `stop`. Each asks for an e-mail of its own that has
 * never failed, so `after=0` waits the whole 5 s, and comes from an address of its own
 * (X-Forwarded-For, believed as the server runs with TRUST_PROXY=true): the route allows 60 requests
 * per minute and address, and 300 pages of one address would be refused at once, without waiting.
 * Per e-mail (20 a minute) a waiter stays far below. The first requests are spread over one wait, as
 * pages arrive, rather than all sent at one instant and all re-sent together every 5 s.
 * @param {string} origin
 */
export function holdWaiters(origin) {
  if (new URL(origin).hostname !== '127.0.0.1')
    throw new Error(`Refusing to load anything but 127.0.0.1: ${origin}`);
  // A connection of its own for each waiter, kept from one request to its next.
  const agent = new Agent({ keepAlive: true, maxSockets: WAITERS });
  let isHolding = true;
  let waiting = 0;
  /** @type {Record<string, number>} */
  const statusCodes = {};
  /** @type {number[]} */
  const waitedMs = [];
  let errors = 0;
  // Anything but a 200 after the full wait: then the waiters did not wait, and the ratio means nothing.
  let notWaited = 0;

  /** @param {number} index @returns {Promise<number>} the status, 0 for no answer */
  const ask = (index) =>
    new Promise((resolve) => {
      const email = encodeURIComponent(`bench-waiter-${index}@example.ch`);
      const started = performance.now();
      waiting += 1;
      let isAnswered = false;
      const done = (/** @type {number} */ status) => {
        // Once: a request cut off mid-answer reports an error on both ends.
        if (isAnswered) return;
        isAnswered = true;
        const ms = performance.now() - started;
        waiting -= 1;
        if (status === 0) errors += 1;
        else {
          statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          waitedMs.push(ms);
        }
        if (status !== 200 || ms < WAITED_MS) notWaited += 1;
        resolve(status);
      };
      const outgoing = request(
        `${origin}/user-login-failed-counter?subdomain=demo&email=${email}&after=0`,
        {
          agent,
          headers: { accept: 'application/json', 'x-forwarded-for': `10.1.${index >> 8}.${index & 255}` },
          timeout: SERVER_WAIT_MS * 3,
        },
        (incoming) => {
          incoming.resume();
          incoming.on('end', () => done(incoming.statusCode ?? 0));
          incoming.on('error', () => done(0));
        },
      );
      outgoing.on('timeout', () => outgoing.destroy());
      outgoing.on('error', () => done(0));
      outgoing.end();
    });

  const waiter = async (/** @type {number} */ index) => {
    await sleep((index * SERVER_WAIT_MS) / WAITERS);
    while (isHolding) {
      // After a failure, not at once again: a refused connection would otherwise spin.
      if ((await ask(index)) === 0) await sleep(100);
    }
  };
  const waiters = Array.from({ length: WAITERS }, (_, index) => waiter(index));
  return {
    /** How many are out now. */
    get waiting() {
      return waiting;
    },
    /** Sends no more, and once every request out is answered, what they were answered. */
    async stop() {
      isHolding = false;
      await Promise.all(waiters);
      agent.destroy();
      waitedMs.sort((a, b) => a - b);
      return {
        waiters: WAITERS,
        answers: waitedMs.length,
        statusCodes,
        errors,
        notWaited,
        waitedMs: {
          min: waitedMs[0] ?? Number.NaN,
          p50: percentile(waitedMs, 50) ?? Number.NaN,
          max: waitedMs.at(-1) ?? Number.NaN,
        },
      };
    },
  };
}

/**
 * /login's median for DURATION_S idle, then for as long again with WAITERS pages waiting beside it,
 * on one server (started with TRUST_PROXY=true, see holdWaiters). Medians to the microsecond
 * (load.mjs, exactMedian): at about 2 ms, whole milliseconds would make the ratio 1, 1.5 or 2.
 * @param {string} origin @param {string} loginPath @param {Record<string, string>} headers
 */
export async function measureLoginBesideWaiters(origin, loginPath, headers) {
  const url = `${origin}${loginPath}`;
  await warmUp(url, headers);
  const idle = await load(url, { headers, exactMedian: true });
  const waiters = holdWaiters(origin);
  // Until every waiter has sent its first request (they are spread over one wait), and a little
  // longer, so that the load meets the steady state: WAITERS out, about 60 answered and re-sent a second.
  await sleep(SERVER_WAIT_MS + 500);
  let fewestWaiting = waiters.waiting;
  const sampler = setInterval(() => {
    fewestWaiting = Math.min(fewestWaiting, waiters.waiting);
  }, 50);
  const beside = await load(url, { headers, exactMedian: true });
  clearInterval(sampler);
  const answered = await waiters.stop();
  const idleMedian = /** @type {number} */ (idle.latency.median);
  const besideMedian = /** @type {number} */ (beside.latency.median);
  return {
    idle,
    beside,
    waiters: { ...answered, fewestWaiting },
    medianIdleMs: idleMedian,
    medianBesideMs: besideMedian,
    ratio: besideMedian / idleMedian,
  };
}
