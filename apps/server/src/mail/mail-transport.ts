import nodemailer from 'nodemailer';
import type { ServerConfig } from '../config';
import type { MailMessage } from './mail-message';

/** Sends one e-mail or throws; the outbox worker decides about retries. */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * nodemailer over SMTP_URL. Pooled: the dev catcher (smtp-server) waits 100 ms on every new
 * connection (STACK-NOTES). Every step has a timeout, so a hanging relay becomes a failed attempt
 * that the outbox retries, never a stuck worker.
 */
export function createMailTransport(mail: ServerConfig['mail']): MailTransport {
  const url = new URL(mail.smtpUrl);
  const transport = nodemailer.createTransport({
    url: mail.smtpUrl,
    pool: true,
    maxConnections: 2,
    // The local dev catcher offers no TLS; elsewhere STARTTLS is used whenever the relay offers it.
    ignoreTLS: url.protocol === 'smtp:' && LOOPBACK_HOSTS.has(url.hostname),
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 15_000,
  });
  return {
    async send(message) {
      await transport.sendMail({
        from: mail.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
      });
    },
    close() {
      transport.close();
    },
  };
}
