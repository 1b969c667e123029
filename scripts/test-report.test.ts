import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPlaywrightReport, readVitestReport, realCidaasLines } from './test-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs Vitest on the fixture whose setup throws, as `npm test` runs it, and returns its report. */
function fixtureReport(): unknown {
  const folder = mkdtempSync(join(tmpdir(), 'test-report-'));
  const output = join(folder, 'vitest.json');
  try {
    try {
      execFileSync(
        join(root, 'node_modules/.bin/vitest'),
        [
          'run',
          '--config',
          'scripts/fixtures/failing-setup/vitest.config.ts',
          '--reporter=json',
          `--outputFile.json=${output}`,
        ],
        { cwd: root, stdio: 'ignore' },
      );
    } catch {
      // Vitest exits non-zero for the failed file, as it should; the report is what is read here.
    }
    return JSON.parse(readFileSync(output, 'utf8'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('the closing line of npm test', () => {
  it('counts a file whose setup failed as failed, with the tests it kept from running', () => {
    const result = readVitestReport(fixtureReport(), root);
    expect(result).toMatchObject({ passed: 1, failed: 2, skipped: 0 });
    expect(result.failures).toEqual([
      expect.stringContaining(
        'failing-setup.fixture.ts › a file whose setup fails › never runs (did not run)',
      ),
      expect.stringContaining('never runs either (did not run)'),
    ]);
  }, 60_000);

  it('counts a file that fails without any test as one failure, and names skipped tests', () => {
    const report = {
      testResults: [
        {
          name: `${root}broken.test.ts`,
          status: 'failed',
          message: 'Cannot find module x\nstack',
          assertionResults: [],
        },
        {
          name: `${root}fine.test.ts`,
          status: 'passed',
          assertionResults: [
            { title: 'runs', ancestorTitles: [], status: 'passed' },
            { title: 'needs a tenant', ancestorTitles: ['real cidaas'], status: 'skipped' },
          ],
        },
      ],
    };
    expect(readVitestReport(report, root)).toEqual({
      passed: 1,
      failed: 1,
      skipped: 1,
      failures: ['broken.test.ts (the file failed: Cannot find module x)'],
      skips: ['fine.test.ts › real cidaas › needs a tenant'],
    });
  });

  it('counts a browser run whose global setup failed as failed', () => {
    const report = {
      stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
      errors: [{ message: 'stack did not start' }],
    };
    expect(readPlaywrightReport(report)).toMatchObject({
      failed: 1,
      failures: ['browser tests: stack did not start'],
    });
  });

  it('says the real tenant did not run, and which variables are missing', () => {
    expect(realCidaasLines(['CIDAAS_BASE_URL', 'CIDAAS_CLIENT_ID'], undefined)).toEqual([
      'real cidaas: not run (CIDAAS_BASE_URL, CIDAAS_CLIENT_ID not set)',
    ]);
  });

  it('names the variants the conformance suite found at the real tenant, those it did not, and what it saw', () => {
    const findings = {
      baseUrl: 'https://example.cidaas.eu',
      variants: { userNotFound: '204', profileShape: 'nested' },
      notFound: { webhookBody: 'no webhook receiver (CIDAAS_WEBHOOK_URL not set)' },
      observed: { fraudDetectionAnswer: 'HTTP 204' },
    };
    expect(realCidaasLines([], findings)).toEqual([
      'real cidaas: variants found at https://example.cidaas.eu: userNotFound=204, profileShape=nested',
      'real cidaas: not found: webhookBody: no webhook receiver (CIDAAS_WEBHOOK_URL not set)',
      'real cidaas: observed: fraudDetectionAnswer=HTTP 204',
    ]);
    expect(realCidaasLines([], { ...findings, notFound: {}, observed: {} })).toHaveLength(1);
  });

  it('says so when the tenant was configured but the suite recorded nothing', () => {
    expect(realCidaasLines([], undefined)).toEqual([
      'real cidaas: no variants recorded (the conformance suite did not run to its end)',
    ]);
  });
});
