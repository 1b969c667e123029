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
/** Where the conformance suite writes what it found at a real cidaas tenant, from the repository root. */
export const REAL_CIDAAS_VARIANTS_FILE: string;
/** What a real-tenant run of the conformance suite found (the content of REAL_CIDAAS_VARIANTS_FILE). */
export interface RealCidaasFindings {
  baseUrl: string;
  variants: Record<string, string>;
  /** Variants the run could not tell, and why. */
  notFound: Record<string, string>;
  observed: Record<string, string>;
}
/** The closing output's lines about the real tenant. */
export function realCidaasLines(missing: string[], findings: RealCidaasFindings | undefined): string[];
