// Turns the collected figures into a table people can read in a terminal or a CI log, and into
// JSON a later run or a chart can compare against.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const KiB = 1024;

/** @param {number} value @param {string} unit */
export function format(value, unit) {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'bytes') {
    return value >= 1024 * KiB ? `${(value / 1024 / KiB).toFixed(0)} MiB` : `${(value / KiB).toFixed(1)} KiB`;
  }
  if (unit === 'ms') return `${value.toFixed(0)} ms`;
  if (unit === 'count') return String(value);
  if (unit === 'ratio') return `${value.toFixed(2)}×`;
  return `${value.toFixed(0)} ${unit}`;
}

/** @param {string[][]} rows the first row is the header */
function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  return [
    line(rows[0]),
    widths.map((width) => '─'.repeat(width)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n');
}

/** @param {any} results @param {ReturnType<typeof import('./budgets.mjs').checkBudgets>} verdicts */
export function printReport(results, verdicts) {
  // A part run alone (`--only=protection`) has only its own figures.
  if (results.bundle) printServer(results);
  if (results.stack) printStack(results.stack);
  if (results.protection) printProtection(results.protection);

  console.log('\nBudgets');
  console.log(
    table([
      ['budget', 'limit', 'measured', ''],
      ...verdicts.map((verdict) => [
        verdict.name,
        `${verdict.kind === 'max' ? '≤' : '≥'} ${format(verdict.limit, verdict.unit)}`,
        format(verdict.actual, verdict.unit),
        verdict.ok ? 'ok' : 'BROKEN',
      ]),
    ]),
  );
}

/** The bundle, the load on the compiled server and its memory. @param {any} results */
function printServer(results) {
  const { bundle, html, load } = results;
  console.log('\n/login assets (from the client manifest)');
  console.log(
    table([
      ['file', 'raw', 'gzip -9'],
      ...bundle.files.map((file) => [file.file, format(file.bytes, 'bytes'), format(file.gzip, 'bytes')]),
      ['total JS', format(bundle.js.bytes, 'bytes'), format(bundle.js.gzip, 'bytes')],
      ['total CSS', format(bundle.css.bytes, 'bytes'), format(bundle.css.gzip, 'bytes')],
      ['server-rendered HTML', format(html.bytes, 'bytes'), format(html.gzip, 'bytes')],
    ]),
  );
  if (html.unlistedAssets.length > 0 || html.unlinkedAssets.length > 0) {
    console.log(
      `note: the HTML links ${html.unlistedAssets.join(', ') || 'nothing extra'} beyond the manifest walk; ` +
        `it does not link ${html.unlinkedAssets.join(', ') || 'anything less'}`,
    );
  }

  console.log(`\nLoad (${load.login.connections} connections, 127.0.0.1, after a 2 s warm-up)`);
  console.log(
    table([
      ['endpoint', 'for', 'req/s', 'p50', 'p90', 'p99', 'max', 'requests', 'errors', 'non-2xx'],
      ...[
        ['GET /login (as arrivals: a kept page, their request id put in)', load.login],
        ['GET /login (every page rendered anew)', load.loginRendered],
        ['GET /config.json', load.config],
      ].map(([name, figures]) => [
        name,
        `${figures.durationSeconds} s`,
        format(figures.requestsPerSecond, 'req/s').replace(' req/s', ''),
        format(figures.latency.p50, 'ms'),
        format(figures.latency.p90, 'ms'),
        format(figures.latency.p99, 'ms'),
        format(figures.latency.max, 'ms'),
        String(figures.requests),
        String(figures.errors),
        String(figures.non2xx),
      ]),
    ]),
  );
  console.log(
    `\nServer (compiled, NODE_ENV=production): ready in ${format(results.startup.serverMs, 'ms')} ` +
      `(process start to the first 200 of /readyz); RSS ${format(results.rss.idle, 'bytes')} idle, ` +
      `${format(results.rss.afterLoad, 'bytes')} after ${load.login.durationSeconds} s of /login load, ` +
      `peak ${format(results.rss.peak, 'bytes')}`,
  );
}

/** The `npm start` stack: the browser walk, memory, sign-ins and Lighthouse. @param {any} stack */
function printStack(stack) {
  const MiB = (bytes) => `${(bytes / 1024 / KiB).toFixed(1)} MiB`;
  console.log(
    `\nnpm start stack: up in ${format(stack.startMs, 'ms')}; browser walk ` +
      stack.walk.steps.map((step) => `${step.name} ${format(step.ms, 'ms')}`).join(', '),
  );
  const before = stack.memory.beforeWalk;
  const after = stack.memory.afterWalk;
  console.log(
    table([
      ['process', 'count', 'PSS before walk', 'PSS after walk', 'RSS after walk'],
      ...Object.entries(after.byName).map(([name, figures]) => [
        name,
        String(figures.processes),
        before.byName[name] ? MiB(before.byName[name].pss) : '–',
        MiB(figures.pss),
        MiB(figures.rss),
      ]),
      ['total', String(after.processes), MiB(before.pss), MiB(after.pss), MiB(after.rss)],
    ]),
  );

  const { roundTrip, throughput } = stack.signIn;
  console.log(
    `\nSign-in round trip against the embedded provider (authorize → login POST → code → token, 127.0.0.1)`,
  );
  console.log(
    table([
      ['run', 'figures'],
      [
        `${roundTrip.roundTrips} sequential`,
        `p50 ${format(roundTrip.p50, 'ms')}, p99 ${format(roundTrip.p99, 'ms')}, max ${format(roundTrip.max, 'ms')}`,
      ],
      [
        `${throughput.concurrency} concurrent, ${throughput.elapsedSeconds.toFixed(0)} s`,
        `${throughput.perSecond.toFixed(1)} sign-ins/s, ${throughput.perSecondPerCore.toFixed(1)} per core ` +
          `(${throughput.cores} cores), ${throughput.completed} done, ${throughput.failed} failed`,
      ],
    ]),
  );

  const { pageSpeed } = stack;
  console.log(
    `\nLighthouse mobile (simulated slow 4G, 4× CPU), median of ${pageSpeed.runs}, taking turns with the floor page`,
  );
  console.log(
    table([
      ['page', 'LCP', 'TBT', 'JS', 'CSS', 'requests', 'to other origins'],
      [
        '/login',
        format(pageSpeed.page.lcpMs, 'ms'),
        format(pageSpeed.page.tbtMs, 'ms'),
        format(pageSpeed.page.scriptBytes, 'bytes'),
        format(pageSpeed.page.stylesheetBytes, 'bytes'),
        String(pageSpeed.page.requests),
        String(pageSpeed.page.otherOrigins),
      ],
      ['floor (same HTML, no scripts, gzip)', format(pageSpeed.floor.lcpMs, 'ms'), '', '', '', '', ''],
    ]),
  );
}

/** Account protection: /login beside waiting counter requests; the lock's latency on the cluster. @param {any} protection */
function printProtection({ counterWaiters, lock }) {
  const { idle, beside, waiters } = counterWaiters;
  const exact = (ms) => `${ms.toFixed(2)} ms`;
  console.log(
    `\nGET /login (${idle.connections} connections, ${idle.durationSeconds} s each) idle and beside ` +
      `${waiters.waiters} waiting GET /user-login-failed-counter (after=0, each re-sent once answered)`,
  );
  console.log(
    table([
      ['run', 'median', 'p99', 'req/s', 'errors + non-2xx'],
      ...[
        ['idle', idle],
        ['beside the waiting requests', beside],
      ].map(([name, figures]) => [
        name,
        exact(figures.latency.median),
        format(figures.latency.p99, 'ms'),
        format(figures.requestsPerSecond, 'req/s').replace(' req/s', ''),
        String(figures.errors + figures.non2xx),
      ]),
    ]),
  );
  console.log(
    `ratio of the medians ${format(counterWaiters.ratio, 'ratio')}; waiting requests: ${waiters.answers} answered ` +
      `(${Object.entries(waiters.statusCodes)
        .map(([code, count]) => `${count}× ${code}`)
        .join(', ')}), after ${format(waiters.waitedMs.min, 'ms')}–${format(waiters.waitedMs.max, 'ms')} ` +
      `(median ${format(waiters.waitedMs.p50, 'ms')}); ${waiters.notWaited} did not wait; ` +
      `never fewer than ${waiters.fewestWaiting} out during the load`,
  );

  console.log(
    `\nLock latency on the cluster (3 instances behind nginx): third wrong password's answer → DECLINED ` +
      `at the provider, ${lock.accounts} fresh accounts, ${lock.concurrency} at a time, read every ${lock.pollMs} ms`,
  );
  console.log(
    table([
      ['accounts locked', 'p50', 'p99', 'max', 'not locked within 10 s', 'not tried', 'took'],
      [
        `${lock.locked} of ${lock.accounts}`,
        format(lock.p50, 'ms'),
        format(lock.p99, 'ms'),
        format(lock.max, 'ms'),
        String(lock.neverLocked),
        String(lock.notTried),
        `${lock.elapsedSeconds.toFixed(1)} s`,
      ],
    ]),
  );
}

/** @param {string} file @param {unknown} data */
export function writeJson(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}
