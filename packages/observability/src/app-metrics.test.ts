import { type Database, openTestDatabase, sql } from '@concierge/database';
import { metricSample } from '@concierge/test-support';
import Fastify from 'fastify';
import { Gauge } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppMetrics, installHttpMetrics } from './app-metrics';

// What both apps' registries have: their requests by route, the process, the database pool.

let database: Database<unknown>;
beforeAll(async () => {
  database = await openTestDatabase<unknown>('app_metrics', {});
});
afterAll(async () => {
  await database?.close();
});

async function appWith(metrics: AppMetrics, routeOf?: (pattern: string | undefined, url: string) => string) {
  const app = Fastify();
  installHttpMetrics(app, metrics, routeOf);
  app.get('/items/:id', async () => ({ ok: true }));
  app.get('/broken', async () => {
    throw new Error('broken');
  });
  await app.ready();
  return app;
}

describe('AppMetrics', () => {
  it('times every answer by method, route pattern and status, never by the URL', async () => {
    const metrics = new AppMetrics('test');
    const app = await appWith(metrics);
    await app.inject({ url: '/items/4711' });
    await app.inject({ url: '/items/4712?secret=x' });
    await app.inject({ url: '/broken' });
    await app.inject({ method: 'POST', url: '/items/4713' });
    const text = await metrics.registry.metrics();
    const series = 'test_http_request_duration_seconds_count';
    expect(metricSample(text, series, { method: 'GET', route: '/items/:id', status_code: '200' })).toBe(2);
    expect(metricSample(text, series, { method: 'GET', route: '/broken', status_code: '500' })).toBe(1);
    // No route has POST /items/…: the not-found handler's answers share one series.
    expect(metricSample(text, series, { method: 'POST', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(
      metricSample(text, 'test_http_request_duration_seconds_bucket', { route: '/items/:id', le: '+Inf' }),
    ).toBe(2);
    expect(text).not.toContain('4711');
    expect(text).not.toContain('secret');
  });

  it('names the route as the app says, from the pattern and the URL', async () => {
    const metrics = new AppMetrics('test');
    const app = await appWith(metrics, (pattern, url) => (pattern ? `${pattern} of ${url.length}` : 'none'));
    await app.inject({ url: '/items/1' });
    await app.inject({ url: '/nowhere' });
    const text = await metrics.registry.metrics();
    const series = 'test_http_request_duration_seconds_count';
    expect(metricSample(text, series, { route: '/items/:id of 8' })).toBe(1);
    expect(metricSample(text, series, { route: 'none', status_code: '404' })).toBe(1);
  });

  it('has the process’s default metrics, the event-loop lag among them', async () => {
    const text = await new AppMetrics('test').registry.metrics();
    expect(metricSample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(metricSample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('keeps each instance’s series apart', async () => {
    const one = new AppMetrics('test');
    const other = new AppMetrics('test');
    await (await appWith(one)).inject({ url: '/items/1' });
    const series = 'test_http_request_duration_seconds_count';
    expect(metricSample(await one.registry.metrics(), series, { route: '/items/:id' })).toBe(1);
    expect(metricSample(await other.registry.metrics(), series, { route: '/items/:id' })).toBeUndefined();
  });

  it('reads the database pool at each scrape, once watched', async () => {
    const metrics = new AppMetrics('test');
    expect(await metrics.registry.metrics()).not.toContain('test_db_pool_');
    // Gauges read from the database at each scrape, as both apps have (their outboxes, locks).
    for (const name of ['test_rows_one', 'test_rows_two']) {
      new Gauge({
        name,
        help: 'Read from the database at each scrape',
        registers: [metrics.registry],
        async collect() {
          const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
          this.set(rows[0]?.one ?? 0);
        },
      });
    }
    metrics.watchPool(database.db);
    await sql`select 1`.execute(database.db);
    for (let scrape = 0; scrape < 3; scrape += 1) {
      const text = await metrics.registry.metrics();
      expect(metricSample(text, 'test_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(metricSample(text, 'test_db_pool_idle_connections')).toBeGreaterThanOrEqual(1);
      // The scrape's own queries are handed an idle connection at once: nothing waits (it read 2).
      expect(metricSample(text, 'test_db_pool_waiting_requests')).toBe(0);
    }
  });

  it('counts a query as waiting while every connection of the pool is taken, and not after', async () => {
    const metrics = new AppMetrics('test');
    metrics.watchPool(database.db);
    const waiting = async () =>
      metricSample(await metrics.registry.metrics(), 'test_db_pool_waiting_requests');
    // All ten connections of the pool held, each by a transaction that waits to be let go.
    let letGo: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const holders = Array.from({ length: 10 }, () =>
      database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await held;
      }),
    );
    await vi.waitUntil(async () => {
      const text = await metrics.registry.metrics();
      return (
        metricSample(text, 'test_db_pool_connections') === 10 &&
        metricSample(text, 'test_db_pool_idle_connections') === 0
      );
    });
    const queued = [sql`select 1`.execute(database.db), sql`select 2`.execute(database.db)];
    expect(await waiting()).toBe(2);
    letGo();
    await Promise.all([...holders, ...queued]);
    expect(await waiting()).toBe(0);
  });
});
