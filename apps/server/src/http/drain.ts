import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shutdown's first phase (main.ts): not ready any more, still answering. */
    drain: Drain;
  }
}

/**
 * Whether the server is on its way out. From the moment it is, /readyz answers 503 so that an
 * orchestrator or a load balancer polling it sends no new traffic, while every request is still
 * answered in full; each answer closes its connection, so that a proxy keeps no idle connection to
 * an instance that is about to stop listening (a request sent on one then would be lost).
 */
export class Drain {
  #since: number | undefined;

  get isDraining(): boolean {
    return this.#since !== undefined;
  }

  begin(): void {
    this.#since ??= Date.now();
  }
}

export function installDrain(app: FastifyInstance): Drain {
  const drain = new Drain();
  app.decorate('drain', drain);
  // On the raw response, as the security headers are: every answer, whatever its route does.
  app.addHook('onRequest', async (_request, reply) => {
    if (drain.isDraining) reply.raw.setHeader('connection', 'close');
  });
  return drain;
}
