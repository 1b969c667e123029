// Reads the runners' JSON reports into the closing line of `npm test`, so that nothing counts as
// green that did not run: a test file that fails outside its tests (a setup that throws, a file
// that does not load) is a failure, and the tests it kept from running are failed tests, not
// skipped ones. Skipped tests are named.
import { relative } from 'node:path';

/**
 * @param {any} report Vitest's JSON report
 * @param {string} root paths are named relative to it
 * @returns {{ passed: number, failed: number, skipped: number, failures: string[], skips: string[] }}
 */
export function readVitestReport(report, root) {
  const result = { passed: 0, failed: 0, skipped: 0, failures: [], skips: [] };
  for (const file of report.testResults ?? []) {
    const name = relative(root, file.name);
    const tests = file.assertionResults ?? [];
    const isFileFailed = file.status === 'failed';
    let failedHere = 0;
    for (const test of tests) {
      const title = [...(test.ancestorTitles ?? []), test.title].join(' › ');
      if (test.status === 'passed') result.passed += 1;
      else if (test.status === 'failed' || isFileFailed) {
        failedHere += 1;
        result.failures.push(`${name} › ${title}${test.status === 'failed' ? '' : ' (did not run)'}`);
      } else {
        result.skipped += 1;
        result.skips.push(`${name} › ${title}`);
      }
    }
    if (isFileFailed && failedHere === 0) {
      failedHere = 1;
      result.failures.push(`${name} (the file failed: ${firstLine(file.message) || 'no test ran'})`);
    }
    result.failed += failedHere;
  }
  return result;
}

/**
 * @param {any} report Playwright's JSON report
 * @returns {{ passed: number, failed: number, skipped: number, failures: string[], skips: string[] }}
 */
export function readPlaywrightReport(report) {
  const { stats } = report;
  const failures = (report.errors ?? []).map((error) => `browser tests: ${firstLine(error.message)}`);
  return {
    passed: stats.expected + stats.flaky,
    // An error outside any test (a global setup that throws) runs no test at all.
    failed: stats.unexpected + failures.length,
    skipped: stats.skipped,
    failures,
    skips: [],
  };
}

function firstLine(text) {
  return String(text ?? '')
    .split('\n', 1)[0]
    .slice(0, 200);
}

/**
 * Where the conformance suite writes what it found at a real cidaas tenant (relative to the
 * repository root; apps/server/src/test-support/conformance-targets.ts): `{ baseUrl, variants,
 * notFound, observed }`, each a map of name to text.
 */
export const REAL_CIDAAS_VARIANTS_FILE = 'test-results/real-cidaas-variants.json';

/**
 * The closing output's lines about the real tenant: not run (which variables are missing), or the
 * variants of the recorded-cidaas double the suite found there, those it could not find and why,
 * and what else it saw.
 * @param {string[]} missing the tenant's variables that are not set
 * @param {any} findings the content of REAL_CIDAAS_VARIANTS_FILE; undefined when there is none
 * @returns {string[]}
 */
export function realCidaasLines(missing, findings) {
  if (missing.length > 0) return [`real cidaas: not run (${missing.join(', ')} not set)`];
  if (!findings) return ['real cidaas: no variants recorded (the conformance suite did not run to its end)'];
  const listed = (entries, separator) =>
    Object.entries(entries ?? {})
      .map(([name, value]) => `${name}${separator}${value}`)
      .join(', ');
  const lines = [
    `real cidaas: variants found at ${findings.baseUrl}: ${listed(findings.variants, '=') || 'none'}`,
  ];
  const notFound = listed(findings.notFound, ': ');
  if (notFound) lines.push(`real cidaas: not found: ${notFound}`);
  const observed = listed(findings.observed, '=');
  if (observed) lines.push(`real cidaas: observed: ${observed}`);
  return lines;
}
