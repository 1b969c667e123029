import { startMailCatcher } from './catcher';

function port(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    throw new Error(`${name} must be a port number (0-65535), got "${value}"`);
  }
  return parsed;
}

const host = process.env.MAIL_HOST || '127.0.0.1';
const catcher = await startMailCatcher({
  smtpPort: port('MAIL_SMTP_PORT', 1025),
  httpPort: port('MAIL_HTTP_PORT', 8025),
  host,
});
console.log(`mail catcher: smtp://${host}:${catcher.smtpPort}, inbox http://${host}:${catcher.httpPort}`);

let isClosing = false;
async function shutdown(signal: string) {
  if (isClosing) return;
  isClosing = true;
  console.log(`mail catcher: ${signal} received, closing`);
  await catcher.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
