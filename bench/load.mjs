// Load against one URL with autocannon, reduced to the figures the budgets and the report use.
// Runs are short and fixed (duration, connections) so the bench ends in bounded time on any machine.
import autocannon from 'autocannon';

export const DURATION_S = 10;
export const WARMUP_S = 2;
export const CONNECTIONS = 10;

/**
 * @typedef {object} LoadFigures
 * @property {string} url
 * @property {number} durationSeconds as asked for
 * @property {number} elapsedSeconds as run: autocannon stops on its next 1 s tick, so up to a second more
 * @property {number} connections
 * @property {number} requests completed requests
 * @property {number} requestsPerSecond mean of autocannon's per-second samples (requests / elapsedSeconds)
 * @property {{ p50: number, p90: number, p99: number, max: number, mean: number, median?: number }} latency
 *   in ms; median only with exactMedian
 * @property {number} errors connection errors and timeouts
 * @property {number} non2xx
 * @property {Record<string, number>} statusCodes
 */

/**
 * @param {string} url only ever 127.0.0.1: the bench never loads anything it did not start
 * @param {{ headers?: Record<string, string>, duration?: number, everyRequestNew?: boolean,
 *   exactMedian?: boolean, nextRequest?: () => { path: string, headers?: Record<string, string> },
 *   amount?: number }} [options]
 *   everyRequestNew: each request's query gets a parameter of its own (`bench=1`, `bench=2`, …), so
 *   that no answer can be one the server kept from before
 *   nextRequest: the path (and headers on top of `headers`) of each request, asked anew for each
 *   amount: this many requests instead of a duration; the run ends when every one is answered
 *   exactMedian: also the median of each 2xx answer's own time, to the microsecond: autocannon's
 *   histogram counts whole milliseconds, too coarse to compare two medians of about 2 ms
 * @returns {Promise<LoadFigures>}
 */
export async function load(
  url,
  {
    headers = {},
    duration = DURATION_S,
    everyRequestNew = false,
    exactMedian = false,
    nextRequest,
    amount,
  } = {},
) {
  if (new URL(url).hostname !== '127.0.0.1')
    throw new Error(`Refusing to load anything but 127.0.0.1: ${url}`);
  const { pathname, search } = new URL(url);
  let count = 0;
  const requests = nextRequest
    ? [
        {
          setupRequest: (request) => {
            const next = nextRequest();
            return { ...request, path: next.path, headers: { ...request.headers, ...next.headers } };
          },
        },
      ]
    : everyRequestNew
      ? [{ setupRequest: (request) => ({ ...request, path: `${pathname}${search}&bench=${++count}` }) }]
      : undefined;
  const run = autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers,
    requests,
    ...(amount === undefined ? {} : { amount }),
  });
  /** @type {number[]} */
  const times = [];
  if (exactMedian) {
    run.on('response', (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) times.push(ms);
    });
  }
  const result = await run;
  times.sort((a, b) => a - b);
  return {
    url,
    durationSeconds: duration,
    elapsedSeconds: result.duration,
    connections: CONNECTIONS,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
      ...(exactMedian ? { median: times[Math.floor(times.length / 2)] ?? Number.NaN } : {}),
    },
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]),
    ),
  };
}

/**
 * A short unmeasured run first: the first requests pay for V8 compiling the render path, which a
 * long-running server pays once; without it that start-up cost would sit in the p99.
 * @param {string} url
 * @param {Record<string, string>} headers
 */
export async function warmUp(url, headers) {
  await load(url, { headers, duration: WARMUP_S });
}
