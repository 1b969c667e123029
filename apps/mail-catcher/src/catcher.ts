import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import { createHttpApp } from './http';
import { createMessageStore } from './message-store';
import { createSmtpServer } from './smtp';

export interface MailCatcherOptions {
  /** 0 picks a free port; the started catcher reports the real one. */
  smtpPort: number;
  httpPort: number;
  host: string;
}

export interface MailCatcher {
  smtpPort: number;
  httpPort: number;
  close(): Promise<void>;
}

function listenSmtp(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}

function closeSmtp(server: SMTPServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts the SMTP server and the inbox (page and JSON API) over one in-memory message list. */
export async function startMailCatcher(options: MailCatcherOptions): Promise<MailCatcher> {
  const store = createMessageStore();
  const smtp = createSmtpServer(store);
  const http = createHttpApp(store);
  const smtpPort = await listenSmtp(smtp, options.smtpPort, options.host);
  try {
    await http.listen({ port: options.httpPort, host: options.host });
  } catch (error) {
    await closeSmtp(smtp);
    throw error;
  }
  return {
    smtpPort,
    httpPort: (http.server.address() as AddressInfo).port,
    async close() {
      await Promise.all([closeSmtp(smtp), http.close()]);
    },
  };
}
