import type { SunkMail } from '@concierge/test-support';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The address of shared-provider-setup.ts's control server, for sharedProvider(). */
    sharedProviderControl: string;
  }
}

/** The e-mails a sink in another process caught, read over HTTP. */
export interface MailReader {
  /** Every message to this address so far, oldest first. */
  to(address: string): Promise<SunkMail[]>;
  /** Waits for the n-th (1-based) message to this address. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<SunkMail>;
}

export interface SharedProvider {
  url: string;
  /** Its e-mails (reset links): its SMTP_URL is a sink in the main Vitest process. */
  mail: MailReader;
}

let shared: Promise<SharedProvider> | undefined;

/**
 * The test run's one embedded provider (shared-provider-setup.ts starts it when the first file asks),
 * for the files that need a provider with the default settings. Every file uses users and e-mails of
 * its own (unique addresses), so none depends on what another did to it. A file that needs other
 * settings (a webhook target, its log, limits) starts its own with startEmbeddedProvider.
 */
export function sharedProvider(): Promise<SharedProvider> {
  shared ??= connect();
  return shared;
}

async function connect(): Promise<SharedProvider> {
  const control = inject('sharedProviderControl');
  if (!control) {
    throw new Error(
      'No shared provider in this run: the node project of vitest.config.ts starts it (globalSetup).',
    );
  }
  const answer = await fetch(new URL('/provider', control), { method: 'POST' });
  if (!answer.ok) throw new Error(`the shared embedded provider did not start: ${await answer.text()}`);
  const { url } = (await answer.json()) as { url: string };
  return { url, mail: mailReader(control) };
}

function mailReader(control: string): MailReader {
  const read = async (address: string, count: number, timeoutMs: number) => {
    const query = new URLSearchParams({ to: address, count: String(count), timeoutMs: String(timeoutMs) });
    const answer = await fetch(new URL(`/mail?${query}`, control));
    if (!answer.ok) throw new Error(await answer.text());
    return (await answer.json()) as SunkMail[];
  };
  return {
    to: (address) => read(address, 0, 0),
    async waitFor(address, count = 1, timeoutMs = 10_000) {
      return (await read(address, count, timeoutMs))[count - 1]!;
    },
  };
}
