// Every page a tenant meets (bench/tenant-arrivals.mjs) as a tenant's old phone gets it, measured by
// Lighthouse with its mobile defaults (simulated slow 4G, 4× CPU slowdown), taking turns with its
// floor: the same server-rendered HTML with its scripts and module preloads removed, served beside
// it. The floor is what the markup alone costs; each round's largest contentful paint is judged as a
// ratio to its floor's in the same round, so that how fast this machine is on the day cancels out.
// Both come from an arrival of their own (a fresh request id, a fresh letter's code), rendered by
// the server anew, so that the floor pays the server's time as the page does.
//
// Lighthouse 12: Lighthouse 13 wants Node 22.19; both use the same mobile defaults and Lantern
// simulation.
import { createServer, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, CHROMIUM_ARGS } from './browser-walk.mjs';
import { LCP_RATIO_LIMIT } from './budgets.mjs';
import { machineReading, machineStateBetween } from './proc-cpu.mjs';

// Lighthouse drives a Chromium it starts itself: headless, with the browser walk's flags.
const CHROMIUM_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];
const FLOOR_PATH = '/floor';

/** The page without what makes it an app: its module script (and preloads, were there any). @param {string} html */
export function floorOf(html) {
  const floor = html
    .replace(/<script type="module"[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '');
  // A floor with a script would measure the page against itself (the start script once moved inline).
  if (/<script(?![^>]*type="application\/json")/.test(floor))
    throw new Error('The floor still holds a script');
  return floor;
}

/**
 * Serves a floor page at /floor — the floor of the arrival `prepare` last took, rendered by the real
 * server when the browser asks for it, as the page is — and passes every other request (stylesheets,
 * the logo) to the real server unchanged, compressed as it answers.
 * @param {() => Promise<string>} nextArrival the address of one more arrival at the page
 * @param {string} origin the real server's
 */
export async function serveFloor(nextArrival, origin) {
  const upstream = new URL(origin);
  let arrival = '';
  const server = createServer((request, response) => {
    if (request.url === FLOOR_PATH) {
      fetch(arrival, { headers: { 'accept-language': 'de-CH', 'accept-encoding': 'identity' } })
        .then(async (answer) => {
          const body = gzipSync(Buffer.from(floorOf(await answer.text()), 'utf8'));
          response.writeHead(answer.status, {
            'content-type': 'text/html; charset=utf-8',
            'content-encoding': 'gzip',
            'cache-control': 'no-cache',
          });
          response.end(body);
        })
        .catch(() => response.writeHead(502).end());
      return;
    }
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    // At `localhost` as the pages are (tenant-arrivals.mjs): the same name to look up for both.
    url: `http://localhost:${port}${FLOOR_PATH}`,
    /** Takes the next arrival, outside the measured load, as the page's is. */
    prepare: async () => {
      arrival = await nextArrival();
    },
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * @typedef {object} PageRun
 * @property {number} lcpMs largest contentful paint
 * @property {number} cls cumulative layout shift
 * @property {number} serverMs the document's time to first byte as observed (unthrottled)
 * @property {number} tbtMs total blocking time
 * @property {number} scriptBytes JavaScript transferred
 * @property {number} stylesheetBytes CSS transferred
 * @property {number} requests every request the page made
 * @property {number} otherOrigins requests to another origin than the page's (the provider, say):
 *   the page comes with its request id and client info, so it needs none (issue "/login as fast…")
 * @property {number} consoleRequests requests for anything below /console: the console's scripts and
 *   stylesheets never load on a tenant's page (issue 30)
 */

/** @param {number} port Chromium's debugging port @param {string} url @returns {Promise<PageRun>} */
async function audit(port, url) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    // Only what is reported: a third of a full performance audit's time.
    onlyAudits: [
      'largest-contentful-paint',
      'cumulative-layout-shift',
      'total-blocking-time',
      'resource-summary',
      'network-requests',
      'server-response-time',
    ],
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const audits = lhr.audits;
  /** @type {{ resourceType: string, transferSize: number, requestCount: number }[]} */
  const summary = /** @type {any} */ (audits['resource-summary']?.details)?.items ?? [];
  const of = (type) => summary.find((item) => item.resourceType === type);
  /** @type {{ url: string }[]} */
  const requests = /** @type {any} */ (audits['network-requests']?.details)?.items ?? [];
  const pageOrigin = new URL(lhr.finalDisplayedUrl ?? url).origin;
  const otherOrigins = requests.filter(
    (request) => request.url.startsWith('http') && new URL(request.url).origin !== pageOrigin,
  ).length;
  const consoleRequests = requests.filter(
    (request) => request.url.startsWith('http') && new URL(request.url).pathname.startsWith('/console'),
  ).length;
  return {
    consoleRequests,
    lcpMs: Number(audits['largest-contentful-paint']?.numericValue),
    cls: Number(audits['cumulative-layout-shift']?.numericValue),
    serverMs: Number(audits['server-response-time']?.numericValue),
    tbtMs: Number(audits['total-blocking-time']?.numericValue),
    scriptBytes: of('script')?.transferSize ?? 0,
    stylesheetBytes: of('stylesheet')?.transferSize ?? 0,
    requests: of('total')?.requestCount ?? 0,
    otherOrigins,
  };
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * @typedef {object} PageSpeed
 * @property {string} name
 * @property {number} rounds
 * @property {number[]} lcpRatios each round's page LCP ÷ floor LCP
 * @property {number} roundsWithin rounds whose ratio is at most LCP_RATIO_LIMIT
 * @property {number} lcpRatio the median ratio
 * @property {{ lcpMs: number, tbtMs: number, scriptBytes: number, stylesheetBytes: number,
 *   requests: number, otherOrigins: number, consoleRequests: number, cls: number }} page medians,
 *   but the most of otherOrigins, consoleRequests and cls that any round saw: one is one too many
 * @property {{ lcpMs: number, serverMs: number }} floor median
 * @property {ReturnType<typeof machineStateBetween>} machine while the page was measured
 */

/**
 * @param {import('./tenant-arrivals.mjs').TenantPage[]} pages
 * @param {string} origin the portal's
 * @param {{ rounds?: number }} [options]
 * @returns {Promise<PageSpeed[]>}
 */
export async function measurePagesSpeed(pages, origin, { rounds = 10 } = {}) {
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    /** @type {PageSpeed[]} */
    const results = [];
    for (const page of pages) {
      const floor = await serveFloor(page.next, origin);
      const before = machineReading();
      try {
        /** @type {PageRun[]} */
        const pageRuns = [];
        /** @type {PageRun[]} */
        const floorRuns = [];
        // Taking turns, so that whatever else the machine does falls on both alike.
        for (let round = 0; round < rounds; round += 1) {
          pageRuns.push(await audit(chrome.port, await page.next()));
          await floor.prepare();
          floorRuns.push(await audit(chrome.port, floor.url));
        }
        const lcpRatios = pageRuns.map((run, round) => run.lcpMs / floorRuns[round].lcpMs);
        const pick = (key) => median(pageRuns.map((entry) => entry[key]));
        results.push({
          name: page.name,
          rounds,
          lcpRatios,
          roundsWithin: lcpRatios.filter((ratio) => ratio <= LCP_RATIO_LIMIT).length,
          lcpRatio: median(lcpRatios),
          page: {
            lcpMs: pick('lcpMs'),
            serverMs: pick('serverMs'),
            tbtMs: pick('tbtMs'),
            scriptBytes: pick('scriptBytes'),
            stylesheetBytes: pick('stylesheetBytes'),
            requests: pick('requests'),
            otherOrigins: Math.max(...pageRuns.map((entry) => entry.otherOrigins)),
            consoleRequests: Math.max(...pageRuns.map((entry) => entry.consoleRequests)),
            cls: Math.max(...pageRuns.map((entry) => entry.cls)),
          },
          floor: {
            lcpMs: median(floorRuns.map((entry) => entry.lcpMs)),
            serverMs: median(floorRuns.map((entry) => entry.serverMs)),
          },
          machine: machineStateBetween(before, machineReading()),
        });
      } finally {
        await floor.close();
      }
    }
    return results;
  } finally {
    chrome.kill();
  }
}
