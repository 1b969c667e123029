import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  from: string | undefined;
  to: string[];
  subject: string;
  html: string;
  text: string;
}

export interface SmtpSink {
  url: string;
  messages: SunkMail[];
  /** Waits for the n-th (1-based) message to this address. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<SunkMail>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps every message parsed, as the dev mail catcher does. */
export async function startSmtpSink(): Promise<SmtpSink> {
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
            to: (email.to ?? []).map((address) => address.address ?? ''),
            subject: email.subject ?? '',
            html: email.html ?? '',
            text: email.text ?? '',
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (typeof address !== 'object' || !address) throw new Error('smtp sink has no address');
  const to = (address: string) => messages.filter((message) => message.to.includes(address));
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
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
