import { startMailCatcher } from './catcher';
import { readMailCatcherConfig } from './config';

const { host, smtpPort, httpPort } = readMailCatcherConfig(process.env);
const catcher = await startMailCatcher({ smtpPort, httpPort, host });
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
