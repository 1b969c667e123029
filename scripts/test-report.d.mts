export interface RunnerCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Each failed test or file, named. */
  failures: string[];
  /** Each skipped test, named. */
  skips: string[];
}
export function readVitestReport(report: unknown, root: string): RunnerCounts;
export function readPlaywrightReport(report: unknown): RunnerCounts;
