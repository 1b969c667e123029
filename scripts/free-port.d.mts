/** A free port on loopback below the ephemeral range, checked free (free-port.mjs says why). */
export function freePort(): Promise<number>;
