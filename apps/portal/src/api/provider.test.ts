import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkUserExistence } from './provider';

afterEach(() => {
  vi.unstubAllGlobals();
});

function answering(response: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => response()),
  );
}

describe('the user existence check, as cidaas and others answer it', () => {
  it.each([
    ['204 without a body (documented)', () => new Response(null, { status: 204 })],
    [
      '417 with code 10301',
      () => Response.json({ success: false, status: 417, error: { code: 10301 } }, { status: 417 }),
    ],
    ['404', () => Response.json({ success: false, status: 404, error: { code: 10301 } }, { status: 404 })],
  ])('reads %s as an unknown user', async (_name, response) => {
    answering(response);
    expect(await checkUserExistence('http://idp.test', 'r1', 'anna@example.ch')).toEqual({ kind: 'unknown' });
  });

  it('reads data as a known user', async () => {
    answering(() => Response.json({ success: true, status: 200, data: { exist: true } }));
    expect(await checkUserExistence('http://idp.test', 'r1', 'anna@example.ch')).toEqual({ kind: 'known' });
  });
});
