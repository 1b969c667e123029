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

  console.log(
    `\nLoad (${load.login.connections} connections, ${load.login.durationSeconds} s each, 127.0.0.1)`,
  );
  console.log(
    table([
      ['endpoint', 'req/s', 'p50', 'p90', 'p99', 'max', 'requests', 'errors', 'non-2xx'],
      ...[
        ['GET /login (SSR)', load.login],
        ['GET /config.json', load.config],
      ].map(([name, figures]) => [
        name,
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
    `\nServer memory: RSS ${format(results.rss.afterLoad, 'bytes')} after load ` +
      `(${format(results.rss.afterStart, 'bytes')} after start, peak ${format(results.rss.peak, 'bytes')})`,
  );

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

/** @param {string} file @param {unknown} data */
export function writeJson(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}
