// `npm start`: everything on one machine — installs and builds what is missing, then runs the mail
// catcher, the embedded provider, the server with the portal and the demo relying party.
// `npm run cluster` (`--cluster`): the same with three server instances behind nginx on one
// PostgreSQL, as production runs them (scripts/cluster.mjs).
// Only Node's own modules load before ensureInstalled: these scripts import no npm package at the top.
import { clusterPortsFromEnv, startCluster } from './cluster.mjs';
import { ensureBuilt, ensureInstalled } from './prepare.mjs';
import { portsFromEnv, startStack } from './stack.mjs';

const isCluster = process.argv.includes('--cluster');
// The ports: the defaults, or what PORT, PROVIDER_PORT, … say (README, "What runs where"). A wrong
// value stops the start before anything is installed or built.
let ports;
try {
  ports = isCluster ? clusterPortsFromEnv() : portsFromEnv();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
ensureInstalled();
ensureBuilt();
const stack = isCluster ? await startCluster({ ports }) : await startStack({ ports });

const instances =
  'instances' in stack
    ? `\n  Server instances behind nginx      ${stack.instances.map((instance) => instance.url).join(', ')}` +
      `\n  Their metrics                      ${stack.instances.map((instance) => instance.metricsUrl).join(', ')}` +
      `\n  nginx configuration                ${stack.balancer.configFile}\n`
    : '';
console.log(`
Concierge is running${isCluster ? ' as a cluster' : ''}:
  Demo property portal (start here)  ${stack.urls.propertyPortal}
  Sign-in portal                     ${stack.urls.portal}/login${isCluster ? '   (nginx)' : ''}
  Embedded identity provider         ${stack.urls.provider}
  Mail catcher inbox                 ${stack.urls.mail}   (SMTP on ${stack.urls.smtp})
${instances}
  Demo tenant account: demo@concierge.test / Demo-Passw0rd!
  Stop with Ctrl+C.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await stack.stop();
    process.exit(0);
  });
}
for (const { name, child } of stack.children) {
  child.once('exit', async (code) => {
    if (stopping) return;
    console.error(`${name} stopped unexpectedly (exit code ${code}); stopping everything.`);
    stopping = true;
    await stack.stop();
    process.exit(1);
  });
}
