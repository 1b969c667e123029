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
  if (unit === 'per request') return value.toFixed(2);
  if (unit === 'µs') return `${value.toFixed(0)} µs`;
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
  if (results.serverCost) printServerCost(results.serverCost);
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
        verdict.verdict === 'met' ? 'ok' : verdict.verdict === 'broken' ? 'BROKEN' : verdict.verdict,
      ]),
    ]),
  );
}

/** The machine beside a figure: its load and what others used of it. @param {any} machine */
function machineNote(machine) {
  return (
    `load ${machine.loadAverage1m.toFixed(2)}, others ${(machine.othersShareOfACore * 100).toFixed(0)} % of a core` +
    (machine.isBusy ? ' (busy)' : '')
  );
}

/** The server's CPU per request against the trivial route (bench/server-cost.mjs). @param {any} cost */
function printServerCost(cost) {
  const { workloads } = cost;
  console.log(
    `\nServer CPU per request (${cost.connections} connections; ${cost.warmUpSeconds} s warm-up, then ` +
      `as many requests as ${cost.seconds} s at its pace; per request answered 2xx; busy: others above ` +
      `${(cost.busyShareOfACore * 100).toFixed(0)} % of a core)`,
  );
  const perRequest = (us) => format(us, 'µs');
  console.log(
    table([
      [
        'load',
        'server CPU',
        '÷ trivial',
        'PostgreSQL CPU',
        '÷ trivial',
        'statements',
        'req/s',
        '2xx',
        'other',
        'machine',
      ],
      ...Object.entries(workloads).map(([key, figures]) => [
        figures.roundsUs
          ? `${figures.name}, median of ${figures.roundsUs.map((us) => us.toFixed(0)).join(' / ')} µs`
          : figures.name,
        perRequest(figures.cpuPerRequestUs),
        key === 'trivial' ? '1×' : format(figures.ratio, 'ratio'),
        key === 'trivial' ? '' : perRequest(figures.postgres.cpuPerRequestUs),
        key === 'trivial' ? '' : format(figures.postgres.ratio, 'ratio'),
        key === 'trivial' ? '' : format(figures.postgres.statementsPerRequest, 'per request'),
        format(figures.requestsPerSecond, 'req/s').replace(' req/s', ''),
        String(figures.answered2xx),
        String(figures.non2xx + figures.errors),
        machineNote(figures.machine),
      ]),
    ]),
  );
  for (const [key, figures] of Object.entries(workloads)) {
    if (key === 'trivial' || figures.postgres.statements.length === 0) continue;
    console.log(
      `${key}: statements per request — ` +
        figures.postgres.statements
          .map((statement) => `${statement.perRequest.toFixed(2)}× ${statement.query.slice(0, 60)}`)
          .join('; '),
    );
  }
  if (cost.profile) printProfile(cost.profile);
}

/** Where the server's time goes under a load (`--profile`: /register). @param {any} profile */
function printProfile(profile) {
  const percent = (share) => `${(share * 100).toFixed(1)} %`;
  // The profiler's own thread is the profile's cost, not the server's.
  const threads = Object.fromEntries(
    Object.entries(profile.threadsMs).filter(([name]) => !name.startsWith('v8:Prof')),
  );
  const total = Object.values(threads).reduce((sum, ms) => sum + ms, 0);
  const main = threads.MainThread ?? 0;
  console.log(
    `\nProfile of the server under ${profile.load} (--cpu-prof; ${profile.answered2xx} answers, ` +
      `${format((total * 1000) / profile.answered2xx, 'µs')} of CPU each; ${machineNote(profile.machine)})`,
  );
  console.log(
    `Threads: main ${percent(main / total)}, ` +
      Object.entries(threads)
        .filter(([name]) => name !== 'MainThread')
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} ${percent(ms / total)}`)
        .join(', ') +
      ` of the process's ${format(total, 'ms')} (the profiler's own thread left out)`,
  );
  const names = {
    mantine: '@mantine/* (bundled in the portal renderer)',
    'react-dom': 'react-dom',
    react: 'react',
    portal: "the portal's page code (own)",
    'portal-bundle': 'portal renderer, not attributed',
    server: "the server's own code",
    pg: 'pg and kysely',
    fastify: 'Fastify and its packages',
    'other-npm': 'other npm packages',
    zlib: 'zlib',
    fetch: "Node's fetch (undici): the provider calls",
    node: 'Node core (http, sockets, streams, microtasks, …)',
    gc: 'garbage collector',
    program: 'V8/native, unattributed',
    other: 'other',
  };
  const ofProcess = (key) => ((profile.shares[key] ?? 0) * main) / total;
  const helpers = threads.V8Worker ?? 0;
  const pool = threads['libuv-worker'] ?? 0;
  // By package, of the whole process: the main thread's samples, and the other threads by their work.
  const rows = [
    ['@mantine/* (bundled in the portal renderer)', ofProcess('mantine')],
    ['react-dom and react', ofProcess('react-dom') + ofProcess('react')],
    ["the portal's page code (own)", ofProcess('portal') + ofProcess('portal-bundle')],
    ["the server's own code", ofProcess('server')],
    ['brotli/zlib: main thread + libuv pool', ofProcess('zlib') + pool / total],
    ['GC: main-thread pauses + V8 helper threads (GC, compiler)', ofProcess('gc') + helpers / total],
    ['pg and kysely', ofProcess('pg')],
    [names.fetch, ofProcess('fetch')],
    [names.node, ofProcess('node')],
    ['Fastify and its packages', ofProcess('fastify')],
    [
      'other (other npm, V8/native, other threads)',
      ofProcess('other-npm') +
        ofProcess('program') +
        ofProcess('other') +
        (total - main - helpers - pool) / total,
    ],
  ];
  console.log(
    table([
      ['by package', 'share of the process'],
      ...rows.map(([name, share]) => [String(name), percent(Number(share))]),
    ]),
  );
  console.log(
    `Main thread alone: ${Object.entries(profile.shares)
      .sort((a, b) => b[1] - a[1])
      .map(([key, share]) => `${names[key] ?? key} ${percent(share)}`)
      .join(', ')}`,
  );
  console.log(
    `Within Fastify, other npm packages and Node core (main thread): ${Object.entries(profile.packages)
      .map(([name, share]) => `${name} ${percent(share)}`)
      .join(', ')}`,
  );
  console.log(
    `Under react-dom's render: ${percent(profile.renderShare)} of the main thread. ` +
      `Top functions: ${profile.topFunctions
        .slice(0, 8)
        .map((entry) => `${entry.name} (${entry.category}) ${percent(entry.share)}`)
        .join(', ')}`,
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
  // `--only=pages` starts the stack for its pages alone: no walk, memory or sign-in.
  if (stack.walk) printStackRun(stack);
  const rounds = stack.pagesSpeed[0]?.rounds ?? 0;
  console.log(
    `\nLighthouse mobile (simulated slow 4G, 4× CPU), ${rounds} rounds taking turns with the floor (the same HTML without scripts); medians`,
  );
  console.log(
    table([
      [
        'page',
        'LCP',
        'floor',
        'ratio',
        'rounds ≤ limit',
        'CLS',
        'TBT',
        'JS',
        'requests',
        'to other origins',
        'machine',
      ],
      ...stack.pagesSpeed.map((page) => [
        page.name,
        format(page.page.lcpMs, 'ms'),
        format(page.floor.lcpMs, 'ms'),
        format(page.lcpRatio, 'ratio'),
        `${page.roundsWithin} of ${page.rounds}`,
        page.page.cls.toFixed(3),
        format(page.page.tbtMs, 'ms'),
        format(page.page.scriptBytes, 'bytes'),
        String(page.page.requests),
        String(page.page.otherOrigins),
        machineNote(page.machine),
      ]),
    ]),
  );
  console.log('\nForms on an old phone (applied slow 4G, 4× CPU), from the navigation; medians');
  console.log(
    table([
      ['page', 'first send', 'without scripts', 'ratio', 'terms open', 'without scripts', 'ratio', 'machine'],
      ...stack.formsUsable.map((form) => [
        form.name,
        format(form.submit.pageMs, 'ms'),
        format(form.submit.floorMs, 'ms'),
        format(form.submit.ratio, 'ratio'),
        form.terms ? format(form.terms.pageMs, 'ms') : '',
        form.terms ? format(form.terms.floorMs, 'ms') : '',
        form.terms ? format(form.terms.ratio, 'ratio') : '',
        machineNote(form.machine),
      ]),
    ]),
  );
}

/** The stack's start, memory and sign-in. @param {any} stack */
function printStackRun(stack) {
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
