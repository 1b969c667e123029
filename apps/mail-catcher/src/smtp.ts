import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { MessageStore } from './message-store';
import { type Envelope, parseMessage } from './parse-message';

export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

function envelopeOf(session: SMTPServerSession): Envelope {
  const { mailFrom, rcptTo } = session.envelope;
  return { mailFrom: mailFrom ? mailFrom.address : undefined, rcptTo: rcptTo.map((rcpt) => rcpt.address) };
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function receive(stream: SMTPServerDataStream, session: SMTPServerSession, store: MessageStore) {
  const raw = await readAll(stream);
  if (stream.sizeExceeded) throw smtpError('Message exceeds fixed maximum message size', 552);
  store.add(await parseMessage(raw, envelopeOf(session)));
}

/**
 * A real SMTP server, so the apps send mail exactly as they do to a relay in production.
 * No TLS and any credentials: it only ever listens on a developer's machine or a CI box.
 */
export function createSmtpServer(store: MessageStore): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    // Apps configured with SMTP credentials still get through: AUTH over plain text is accepted.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    disabledCommands: ['STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    disableReverseLookup: true,
    logger: false,
    // Pooled senders keep their connection open; do not let them hold up a shutdown for 30 s.
    closeTimeout: 2000,
    onData(stream, session, callback) {
      receive(stream, session, store).then(
        () => callback(),
        (error: unknown) =>
          callback(
            error instanceof Error && 'responseCode' in error
              ? error
              : smtpError('Message not readable', 554),
          ),
      );
    },
  });
}
