import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig, trustProxyOf } from './config';

describe('TRUST_PROXY', () => {
  it('is off unless set, and takes yes/no words, a hop count or proxy addresses', () => {
    expect(loadConfig({ CONCIERGE_DEV: 'true' }).trustProxy).toBe(false);
    expect(trustProxyOf('true')).toBe(true);
    expect(trustProxyOf('off')).toBe(false);
    expect(trustProxyOf('2')).toBe(2);
    expect(trustProxyOf('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trustProxyOf(' 10.0.0.0/8, ::1 , loopback')).toEqual(['10.0.0.0/8', '::1', 'loopback']);
  });

  it('refuses what is none of them, naming the variable', () => {
    for (const value of ['maybe', '10.0.0.0/33', 'nginx.internal', '127.0.0.1/8/1', 'constructor']) {
      expect(trustProxyOf(value)).toBeUndefined();
    }
    expect(() => loadConfig({ CONCIERGE_DEV: 'true', TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });

  it('with the proxy named, believes it only: a client cannot put an address in front', async () => {
    const app = Fastify({
      trustProxy: loadConfig({ CONCIERGE_DEV: 'true', TRUST_PROXY: '127.0.0.1' }).trustProxy as string[],
    });
    app.get('/', async (request) => ({ ip: request.ip, protocol: request.protocol, host: request.host }));
    const through = (remoteAddress: string, forwardedFor: string) =>
      app.inject({
        url: '/',
        remoteAddress,
        headers: {
          'x-forwarded-for': forwardedFor,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'login.example.ch',
        },
      });
    // nginx appended the address it saw to what the client sent.
    expect((await through('127.0.0.1', '203.0.113.9, 198.51.100.4')).json()).toEqual({
      ip: '198.51.100.4',
      protocol: 'https',
      host: 'login.example.ch',
    });
    // Not from the proxy: the headers count for nothing.
    expect((await through('198.51.100.7', '203.0.113.9')).json()).toMatchObject({
      ip: '198.51.100.7',
      protocol: 'http',
    });
    await app.close();
  });
});

describe('SHUTDOWN_DRAIN_SECONDS', () => {
  it('is 5 s unless set', () => {
    expect(loadConfig({ CONCIERGE_DEV: 'true' }).shutdownDrainMs).toBe(5000);
    expect(loadConfig({ CONCIERGE_DEV: 'true', SHUTDOWN_DRAIN_SECONDS: '0.5' }).shutdownDrainMs).toBe(500);
    expect(() => loadConfig({ CONCIERGE_DEV: 'true', SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(
      /SHUTDOWN_DRAIN_SECONDS/,
    );
  });
});
