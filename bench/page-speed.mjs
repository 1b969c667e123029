// /login as a tenant's old phone gets it, measured by Lighthouse with its mobile defaults (simulated
// slow 4G, 4× CPU slowdown), taking turns with a floor page: the same server-rendered HTML with its
// scripts and module preloads removed, gzip'd, served beside it. The floor is what the markup alone
// costs; the page's largest contentful paint is judged as a ratio to it, so that how fast this
// machine is on the day cancels out (issue "/login as fast as a hand-written page").
//
// Lighthouse 12: Lighthouse 13 wants Node 22.19, and this machine's runtime is Node 20; both use
// the same mobile defaults and Lantern simulation.
import { createServer, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, CHROMIUM_ARGS } from './browser-walk.mjs';

// Lighthouse drives a Chromium it starts itself: headless, with the browser walk's flags.
const CHROMIUM_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];
const FLOOR_PATH = '/floor';

/** The page without what makes it an app: its module script (and preloads, were there any). @param {string} html */
export function floorOf(html) {
  return html
    .replace(/<script type="module"[^>]*><\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '');
}

/**
 * Serves the floor page at /floor and passes every other request (stylesheets, the logo) to the
 * real server unchanged, compressed as it answers.
 * @param {string} html the floor page
 * @param {string} origin the real server's
 */
async function serveFloor(html, origin) {
  const body = gzipSync(Buffer.from(html, 'utf8'));
  const upstream = new URL(origin);
  const server = createServer((request, response) => {
    if (request.url === FLOOR_PATH) {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-encoding': 'gzip',
        'cache-control': 'no-cache',
      });
      response.end(body);
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
    url: `http://127.0.0.1:${port}${FLOOR_PATH}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * @typedef {object} PageRun
 * @property {number} lcpMs largest contentful paint
 * @property {number} tbtMs total blocking time
 * @property {number} scriptBytes JavaScript transferred
 * @property {number} stylesheetBytes CSS transferred
 * @property {number} requests every request the page made
 * @property {number} otherOrigins requests to another origin than the page's (the provider, say):
 *   the page comes with its request id and client info, so it needs none (issue "/login as fast…")
 */

/** @param {number} port Chromium's debugging port @param {string} url @returns {Promise<PageRun>} */
async function audit(port, url) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
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
  return {
    lcpMs: Number(audits['largest-contentful-paint']?.numericValue),
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
 * @param {string} pageUrl a /login URL with a live request id, as a tenant arrives at it
 * @param {{ runs?: number }} [options]
 */
export async function measurePageSpeed(pageUrl, { runs = 3 } = {}) {
  const response = await fetch(pageUrl, { headers: { 'accept-language': 'de-CH' } });
  if (response.status !== 200) throw new Error(`GET ${pageUrl} answered ${response.status}`);
  const floor = await serveFloor(floorOf(await response.text()), new URL(pageUrl).origin);
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    /** @type {PageRun[]} */
    const pageRuns = [];
    /** @type {PageRun[]} */
    const floorRuns = [];
    // Taking turns, so that whatever else the machine does falls on both alike.
    for (let run = 0; run < runs; run += 1) {
      pageRuns.push(await audit(chrome.port, pageUrl));
      floorRuns.push(await audit(chrome.port, floor.url));
    }
    const pick = (list, key) => median(list.map((entry) => entry[key]));
    const page = {
      lcpMs: pick(pageRuns, 'lcpMs'),
      tbtMs: pick(pageRuns, 'tbtMs'),
      scriptBytes: pick(pageRuns, 'scriptBytes'),
      stylesheetBytes: pick(pageRuns, 'stylesheetBytes'),
      requests: pick(pageRuns, 'requests'),
      // The most any run made: one call is one too many.
      otherOrigins: Math.max(...pageRuns.map((entry) => entry.otherOrigins)),
    };
    const floorLcpMs = pick(floorRuns, 'lcpMs');
    return { runs, page, floor: { lcpMs: floorLcpMs }, lcpRatio: page.lcpMs / floorLcpMs };
  } finally {
    chrome.kill();
    await floor.close();
  }
}
