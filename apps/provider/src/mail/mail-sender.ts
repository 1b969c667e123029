import nodemailer from 'nodemailer';
import type { ProviderConfig } from '../config';
import type { MailMessage } from './mail-message';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Sends through SMTP_URL with a pooled connection (the dev catcher, like smtp-server, waits 100 ms on
 * every new connection — STACK-NOTES). Every step has a timeout, so a hanging relay turns into a
 * failed attempt that the mail outbox retries.
 */
export function createMailSender(mail: ProviderConfig['mail']) {
  const isLoopback = LOOPBACK_HOSTS.has(new URL(mail.smtpUrl).hostname);
  const transport = nodemailer.createTransport({
    url: mail.smtpUrl,
    pool: true,
    maxConnections: 2,
    // The local catcher offers no TLS; elsewhere STARTTLS is used whenever the relay offers it.
    ignoreTLS: isLoopback,
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10_000,
  });
  return {
    async send(message: MailMessage): Promise<void> {
      await transport.sendMail({ from: mail.from, ...message });
    },
    close(): void {
      transport.close();
    },
  };
}
