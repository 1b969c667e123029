// `npm start`: everything on one machine — installs and builds what is missing, then runs the mail
// catcher, the embedded provider, the server with the portal and the demo relying party.
// `npm run cluster` (`--cluster`): the same with three server instances behind nginx on one
// PostgreSQL, as production runs them (scripts/cluster.mjs).
// Only Node's own modules load before ensureInstalled: these scripts import no npm package at the top.
import { clusterPortsFromEnv, startCluster } from './cluster.mjs';
import { leaveSignalsToCaller } from './embedded-postgres.mjs';
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

// SIGINT (Ctrl+C) and SIGTERM stop everything this started, in order — nginx, the apps (the server
// instances drain), PostgreSQL — and remove the run's files (nginx's directory) before this exits:
// nothing is left running or behind (scripts/start.test.ts). A signal while it starts stops it once
// it has started. PostgreSQL's own signal hooks stand back, or they would stop it under the running
// apps and end this process halfway.
leaveSignalsToCaller();
// The data (PostgreSQL's, the registry copy, the provider's clients): `.data` unless DATA_DIR says.
const dataDir = process.env.DATA_DIR || undefined;
const starting = isCluster ? startCluster({ ports, dataDir }) : startStack({ ports, dataDir });
let stopping = false;
/** @param {number} code */
async function stopAndExit(code) {
  stopping = true;
  await (await starting.catch(() => undefined))?.stop();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!stopping) void stopAndExit(0);
  });
}
const stack = await starting;
// Unless a signal came while it started: then it is stopping already.
if (!stopping) announce(stack);

/** Says where everything runs, and stops everything when one of the processes ends by itself. */
function announce(stack) {
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
  Console of the office              ${stack.urls.portal}/console
  Embedded identity provider         ${stack.urls.provider}
  Mail catcher inbox                 ${stack.urls.mail}   (SMTP on ${stack.urls.smtp})
${instances}
  Demo tenant account: demo@concierge.test / Demo-Passw0rd!
  Console: verwaltung@concierge.test / Verwaltung-Passw0rd! (demo's office), operator@concierge.test / Operator-Passw0rd!
  Stop with Ctrl+C.
`);
  for (const { name, child } of stack.children) {
    child.once('exit', (code) => {
      if (stopping) return;
      console.error(`${name} stopped unexpectedly (exit code ${code}); stopping everything.`);
      void stopAndExit(1);
    });
  }
}
