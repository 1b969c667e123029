/**
 * A free port on loopback below the ephemeral range, checked free (free-port.mjs says why). `taken`:
 * the ports the run has chosen already, none of which it gives; the port is added to it.
 */
export function freePort(taken?: Set<number>): Promise<number>;
