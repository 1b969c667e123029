import { randomUUID } from 'node:crypto';

export interface ResetLink {
  rprq: string;
  exchangeId: string;
  requestId: string;
  sub: string;
  /** The client of the initiate's request id; reported in the PASSWORD_RESET webhook. */
  clientId: string;
  isUsed: boolean;
}

/** The links cidaas would e-mail; each is single-use. */
export class ResetLinks {
  readonly #links: ResetLink[] = [];

  create(sub: string, requestId: string, clientId: string, rprq: string): ResetLink {
    const link = { rprq, exchangeId: randomUUID(), requestId, sub, clientId, isUsed: false };
    this.#links.push(link);
    return link;
  }

  latestFor(sub: string): ResetLink | undefined {
    return this.#links.findLast((link) => link.sub === sub);
  }

  /** The unused link with this pair of ids; the caller marks it used once the reset succeeds. */
  findUnused(rprq: string, exchangeId: string): ResetLink | undefined {
    return this.#links.find((link) => link.rprq === rprq && link.exchangeId === exchangeId && !link.isUsed);
  }
}
