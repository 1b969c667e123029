import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type MailSink, startMailSink } from '@concierge/test-support';
import type { TestProject } from 'vitest/node';
import { type EmbeddedProvider, startEmbeddedProvider } from './embedded-provider';

// Vitest's global setup for the node tests (after scripts/test-database.mjs, whose DATABASE_URL it
// uses): one embedded provider for the whole run instead of one per test file, each of which cost a
// process start, a database and its migrations. It runs in the main Vitest process, so the test
// files reach it through a small control server on 127.0.0.1 (sharedProvider in shared-provider.ts):
// the first file that asks starts the provider, so a run without such a file starts none. Its
// e-mails go to a mail sink here, which the files read through the same server.

interface Started {
  provider: EmbeddedProvider;
  sink: MailSink;
}

async function startShared(): Promise<Started> {
  const sink = await startMailSink();
  try {
    const provider = await startEmbeddedProvider({
      SMTP_URL: sink.url,
      // No file reads this provider's webhooks: those that do start a provider of their own with
      // their server as the target. Nothing listens on port 1, so a delivery fails at once.
      PROVIDER_WEBHOOK_URL: 'http://127.0.0.1:1/api/cidaas-webhook/events',
      // The per-IP limit and the alarm count every file's calls from 127.0.0.1 together: with them on,
      // a file would fail or pass depending on what ran before it. The provider's own tests cover them.
      PROVIDER_LOGIN_LIMIT_PER_IP: '0',
      PROVIDER_LOGIN_ALARM_PER_MINUTE: '0',
    });
    return { provider, sink };
  } catch (error) {
    await sink.close();
    throw error;
  }
}

export default async function setup(project: TestProject) {
  let started: Promise<Started> | undefined;
  const shared = () => {
    started ??= startShared();
    return started;
  };

  async function answer(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://control');
    if (request.method === 'POST' && url.pathname === '/provider') {
      const { provider } = await shared();
      return reply(response, 200, { url: provider.url });
    }
    if (request.method === 'GET' && url.pathname === '/mail') {
      const { sink } = await shared();
      const address = url.searchParams.get('to') ?? '';
      const count = Number(url.searchParams.get('count') ?? 0);
      if (count > 0) await sink.waitFor(address, count, Number(url.searchParams.get('timeoutMs')));
      return reply(response, 200, sink.to(address));
    }
    reply(response, 404, { error: `no ${request.method} ${url.pathname}` });
  }

  const control = createServer((request, response) => {
    answer(request, response).catch((error: unknown) =>
      reply(response, 500, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const address = control.address();
  if (typeof address !== 'object' || !address) throw new Error('the control server has no address');
  project.provide('sharedProviderControl', `http://127.0.0.1:${address.port}`);

  return async () => {
    control.closeAllConnections();
    await new Promise<void>((resolve) => control.close(() => resolve()));
    // A start that failed has nothing to stop; its error reached every file that asked.
    const running = await started?.catch(() => undefined);
    await running?.provider.stop();
    await running?.sink.close();
  };
}

function reply(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
