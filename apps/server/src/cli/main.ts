import { runCli } from './run-cli';

// npm run admin --workspace @concierge/server -- <command> …  (see usage.ts)
const exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  info: (text) => process.stderr.write(`${text}\n`),
});
process.exitCode = exitCode;
