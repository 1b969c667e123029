// `npm start`: everything on one machine — installs and builds what is missing, then runs the mail
// catcher, the embedded provider, the server with the portal and the demo relying party.
import { ensureBuilt, ensureInstalled } from './prepare.mjs';

ensureInstalled();
ensureBuilt();
const { startStack } = await import('./stack.mjs');
const stack = await startStack();

console.log(`
Concierge is running:
  Demo property portal (start here)  ${stack.urls.propertyPortal}
  Sign-in portal                     ${stack.urls.portal}/login
  Embedded identity provider         ${stack.urls.provider}
  Mail catcher inbox                 ${stack.urls.mail}   (SMTP on ${stack.urls.smtp})

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
