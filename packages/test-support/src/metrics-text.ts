// Reading Prometheus' text format in the tests of the apps' /metrics: what an operator's scrape sees.

/** The exposition text of a metrics port's /metrics; throws unless it answers 200. */
export async function scrapeMetrics(metricsUrl: string): Promise<string> {
  const response = await fetch(`${metricsUrl}/metrics`);
  if (response.status !== 200) throw new Error(`${metricsUrl}/metrics answered ${response.status}`);
  return response.text();
}

/**
 * The value of one series of the exposition text: the first sample of that name whose labels include
 * those given (others may be there); undefined when there is none.
 */
export function metricSample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1], label[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}
