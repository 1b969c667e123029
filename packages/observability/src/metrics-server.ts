import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own (the server's METRICS_PORT, the provider's
 * PROVIDER_METRICS_PORT; docs/operations.md, "Metrics"): Prometheus scrapes it from inside the
 * network, the public port has no /metrics at all, and this port answers nothing else. Bound to the
 * host given (METRICS_HOST, PROVIDER_METRICS_HOST), 127.0.0.1 unless configured.
 */
export async function startMetricsServer(
  registry: Registry,
  where: { host: string; port: number },
): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?', 1)[0];
    if ((request.method !== 'GET' && request.method !== 'HEAD') || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) =>
        response
          .writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
          .end(request.method === 'HEAD' ? undefined : text),
      () =>
        response
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('The metrics could not be collected.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
