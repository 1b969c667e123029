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
