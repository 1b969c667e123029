import { PORTAL_API_PREFIX } from '@concierge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API_PREFIX } from '../routes/admin';
import { startTestServer } from '../test-support/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('Cache-Control of JSON answers (issue 26)', () => {
  it('is no-store on every JSON answer whose route says nothing: API, errors, health', async () => {
    const answers = await Promise.all([
      server.app.inject({ url: '/healthz' }),
      server.app.inject({ url: '/api/nowhere', headers: { accept: 'application/json' } }),
      server.app.inject({
        method: 'POST',
        url: `${PORTAL_API_PREFIX}/resend-account-activation-email`,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      }),
      server.app.inject({ url: `${ADMIN_API_PREFIX}/codes?tenant=demo` }),
    ]);
    for (const answer of answers) {
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 404, 400, 401]);
  });

  it('leaves a route its own: /config.json and the page state revalidate, designs and texts are public', async () => {
    const header = async (url: string) => (await server.app.inject({ url })).headers['cache-control'];
    expect(await header('/config.json')).toBe('no-cache');
    expect(await header('/page-state.json?path=/login')).toBe('no-cache');
    expect(await header('/api/designs/demo')).toBe('public, max-age=300');
    expect(await header('/messages/de?namespaces=login')).toBe('public, max-age=300');
  });
});
