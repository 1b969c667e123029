import { type Database, openTestDatabase } from '@concierge/database';
import { freePort, startMailSink } from '@concierge/test-support';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrations, SERVER_SCHEMA } from '../db/migrations';
import type { ServerTables } from '../db/schema';
import type { MailMessage } from '../mail/mail-message';
import { createMailTransport, type MailTransport } from '../mail/mail-transport';
import { enqueueMail } from './mail-outbox';
import { MailOutboxWorker } from './outbox-worker';

let database: Database<ServerTables>;
beforeAll(async () => {
  database = await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations);
});
afterAll(() => database.close());

const log = Fastify({ logger: false }).log;
const FAST_RETRY = { firstDelayMs: 50, maxDelayMs: 200, maxAttempts: 20 };

function message(to: string): MailMessage {
  return { kind: 'activation', to, subject: `Hello ${to}`, html: '<p>Hello</p>', text: 'Hello' };
}

const rowFor = (recipient: string) =>
  database.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('recipient', '=', recipient)
    .executeTakeFirstOrThrow();

/** Waits until the row's backoff has run out (the time the worker stored), so that a pass takes it. */
async function untilDue(recipient: string): Promise<void> {
  const due = (await rowFor(recipient)).next_attempt_at;
  if (!due) throw new Error(`the e-mail to ${recipient} is not scheduled`);
  await vi.waitUntil(() => Date.now() >= due.getTime(), { timeout: 5000, interval: 5 });
}

describe('MailOutboxWorker', () => {
  it('loses no e-mail while the SMTP server is down, and sends it once it is back', async () => {
    const port = await freePort();
    const transport = createMailTransport({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'no-reply@concierge.test',
    });
    const worker = new MailOutboxWorker({ db: database.db, transport, log, retry: FAST_RETRY });
    await enqueueMail(database.db, message('down@example.ch'));
    try {
      expect(await worker.runOnce()).toMatchObject({ failed: 1, sent: 0 });
      await untilDue('down@example.ch');
      expect(await worker.runOnce()).toMatchObject({ failed: 1, sent: 0 });
      const failed = await rowFor('down@example.ch');
      expect(failed).toMatchObject({
        attempts: 2,
        sent_at: null,
        last_error: expect.stringMatching(/^E[A-Z]+/),
      });
      // Not due yet: the backoff holds it back.
      expect(failed.next_attempt_at!.getTime()).toBeGreaterThan(Date.now());

      const smtp = await startMailSink({ port });
      try {
        await untilDue('down@example.ch');
        expect(await worker.runOnce()).toMatchObject({ sent: 1 });
        expect(smtp.messages.flatMap((mail) => mail.to)).toEqual(['down@example.ch']);
        const sent = await rowFor('down@example.ch');
        expect(sent).toMatchObject({
          attempts: 3,
          sent_at: expect.any(Date),
          next_attempt_at: null,
          last_error: null,
        });
        // Sent mail keeps no link: the body is gone.
        expect(sent).toMatchObject({ html: '', text: '' });
        expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0 });
        expect(smtp.messages.flatMap((mail) => mail.to)).toEqual(['down@example.ch']);
      } finally {
        // The pooled connection first: the server waits for open connections when it closes.
        transport.close();
        await smtp.close();
      }
    } finally {
      transport.close();
    }
  });

  it('never sends one e-mail twice when two instances run at once', async () => {
    const port = await freePort();
    const smtp = await startMailSink({ port });
    const transports = [0, 1].map(() =>
      createMailTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'no-reply@concierge.test' }),
    );
    try {
      const recipients = Array.from({ length: 30 }, (_, index) => `twice${index}@example.ch`);
      for (const recipient of recipients) await enqueueMail(database.db, message(recipient));
      const workers = transports.map(
        (transport) => new MailOutboxWorker({ db: database.db, transport, log, batchSize: 5 }),
      );
      const results = await Promise.all(workers.map((worker) => worker.runOnce()));
      expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(30);
      expect(
        smtp.messages
          .flatMap((mail) => mail.to)
          .filter((address) => address.startsWith('twice'))
          .sort(),
      ).toEqual([...recipients].sort());
    } finally {
      for (const transport of transports) transport.close();
      await smtp.close();
    }
  });

  it('gives up after the last attempt and says so', async () => {
    const failing: MailTransport = {
      async send() {
        throw Object.assign(new Error('550 mailbox unavailable for someone@example.ch'), {
          code: 'EENVELOPE',
          responseCode: 550,
        });
      },
      close() {},
    };
    const worker = new MailOutboxWorker({
      db: database.db,
      transport: failing,
      log,
      retry: { firstDelayMs: 1, maxDelayMs: 1, maxAttempts: 3 },
    });
    await enqueueMail(database.db, message('gone@example.ch'));
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await untilDue('gone@example.ch');
      expect(await worker.runOnce()).toEqual({ sent: 0, failed: 1 });
    }
    // Given up after the third: nothing is scheduled any more, and a further pass leaves it alone.
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0 });
    const row = await rowFor('gone@example.ch');
    // The stored reason names no address: relays quote the recipient in their replies.
    expect(row).toMatchObject({
      attempts: 3,
      sent_at: null,
      next_attempt_at: null,
      last_error: 'EENVELOPE 550',
    });
  });
});
