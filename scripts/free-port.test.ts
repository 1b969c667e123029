import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.mjs';

const ephemeralStart = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
);

describe('freePort', () => {
  it('gives ports below the range outgoing connections draw from, each one free to listen on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart);
    }
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('never gives one run the same port twice, though each is free until its server starts', async () => {
    // 500 draws from the ~22,000 ports below the ephemeral range repeat one with a chance of 99.6 %.
    const taken = new Set<number>();
    const ports: number[] = [];
    for (let index = 0; index < 500; index += 1) ports.push(await freePort(taken));
    expect(new Set(ports).size).toBe(500);
    expect(taken).toEqual(new Set(ports));
  });
});
