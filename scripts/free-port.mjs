// A free port on loopback, for a server that a test or the launcher starts a moment later, often in
// another process. Plain JavaScript, so that the launcher can use it before anything is built; the
// test packages take it from here too.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;
/** IANA's ephemeral range begins here; where the system says otherwise (Linux), that wins. */
const IANA_EPHEMERAL_START = 49_152;

/**
 * Not a port the system hands out by itself. A port from `listen(0)` comes from the ephemeral range,
 * which every outgoing connection draws its local port from too: with four test files at a time
 * (each with its database and HTTP connections), one took such a port in the moment between the
 * probe and the cluster test's server, which then failed with EADDRINUSE. So: a random port between
 * 10000 and the start of that range, checked free, and only when none is found one from the system.
 *
 * `taken`: the ports already chosen for the same run, which the probe finds free too until their
 * servers start; the port is added to it. Without it, two apps of one run could draw the same port,
 * and the second to start failed with EADDRINUSE (seen once in CI: the provider's port).
 * @param {Set<number>} [taken]
 * @returns {Promise<number>}
 */
export async function freePort(taken = new Set()) {
  const end = ephemeralStart();
  for (let attempt = 0; attempt < 50 && end - LOWEST > 1000; attempt += 1) {
    const port = randomInt(LOWEST, end);
    if (!taken.has(port) && (await canListen(port))) return take(taken, port);
  }
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await listenAnywhere();
    if (!taken.has(port)) return take(taken, port);
  }
  throw new Error('No free port on 127.0.0.1 after 100 attempts.');
}

/**
 * @param {Set<number>} taken
 * @param {number} port
 */
function take(taken, port) {
  taken.add(port);
  return port;
}

function ephemeralStart() {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = Number(start);
    return Number.isInteger(port) && port > 0 ? port : IANA_EPHEMERAL_START;
  } catch {
    return IANA_EPHEMERAL_START;
  }
}

/** @param {number} port */
function canListen(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** @returns {Promise<number>} */
function listenAnywhere() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
