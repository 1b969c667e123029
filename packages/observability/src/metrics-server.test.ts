import { Counter, Gauge, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetricsServer, startMetricsServer } from './metrics-server';

// The metrics port as Prometheus and anyone else on the network meet it.

const registry = new Registry();
new Counter({ name: 'test_things_total', help: 'Things', registers: [registry] }).inc(3);
let metrics: MetricsServer;
beforeAll(async () => {
  metrics = await startMetricsServer(registry, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await metrics?.close();
});

describe('the metrics server', () => {
  it('answers GET /metrics with the registry in Prometheus text format, never cached', async () => {
    expect(metrics.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${metrics.url}/metrics?ignored=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('test_things_total 3');
  });

  it('answers HEAD without a body', async () => {
    const response = await fetch(`${metrics.url}/metrics`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('answers nothing else', async () => {
    expect((await fetch(`${metrics.url}/`)).status).toBe(404);
    expect((await fetch(`${metrics.url}/metrics/x`)).status).toBe(404);
    expect((await fetch(`${metrics.url}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('answers 500 when a series cannot be collected, and goes on serving', async () => {
    const failing = new Registry();
    new Gauge({
      name: 'test_failing',
      help: 'Fails to collect',
      registers: [failing],
      collect() {
        throw new Error('unreadable');
      },
    });
    const server = await startMetricsServer(failing, { host: '127.0.0.1', port: 0 });
    try {
      const response = await fetch(`${server.url}/metrics`);
      expect(response.status).toBe(500);
      expect(await response.text()).toBe('The metrics could not be collected.\n');
      expect((await fetch(`${server.url}/metrics`)).status).toBe(500);
    } finally {
      await server.close();
    }
  });

  it('refuses to start on a port already taken', async () => {
    const { port } = new URL(metrics.url);
    await expect(startMetricsServer(registry, { host: '127.0.0.1', port: Number(port) })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });
});
