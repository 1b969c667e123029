import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readPropertyPortalConfig } from './config';
import { createPropertyPortalServer } from './server';

const config = readPropertyPortalConfig(process.env);
if (!existsSync(join(config.distDir, 'index.html'))) {
  throw new Error(
    `No build in ${config.distDir}: run "npm run build --workspace @concierge/property-portal" first`,
  );
}
const app = await createPropertyPortalServer(config, { logger: { level: 'info' } });
await app.listen({ port: config.port, host: config.host });

let isClosing = false;
async function shutdown() {
  if (isClosing) return;
  isClosing = true;
  await app.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
