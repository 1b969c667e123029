import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  from: string | undefined;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface MailSink {
  /** `smtp://127.0.0.1:<port>`, for a sender's SMTP_URL. */
  url: string;
  /** Waits for the n-th (1-based) message to this address. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<SunkMail>;
  /** Every message so far, oldest first. */
  messages: SunkMail[];
  /** Every message to this address so far. */
  to(address: string): SunkMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed — for the tests of
 * everything that sends e-mail (the server's outbox, the provider's reset mails).
 */
export async function startMailSink(options: { port?: number } = {}): Promise<MailSink> {
  const messages: SunkMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 500,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then((email) => {
          messages.push({
            from: email.from?.address,
            to: (email.to ?? []).map((recipient) => recipient.address ?? ''),
            subject: email.subject ?? '',
            text: email.text ?? '',
            html: email.html ?? '',
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (typeof address !== 'object' || !address) throw new Error('the mail sink has no address');
  const to = (recipient: string) => messages.filter((message) => message.to.includes(recipient));
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    to,
    async waitFor(recipient, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(recipient).length < count) {
        if (Date.now() > deadline) throw new Error(`no mail number ${count} to ${recipient}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return to(recipient)[count - 1]!;
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
