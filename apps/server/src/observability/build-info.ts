// The version is the server package's own, bundled into dist/main.js at build: what runs says
// which release it is, whatever package.json lies beside it later.
import serverPackage from '../../package.json' with { type: 'json' };

/** What runs: the release, the commit it was built from, and the Node.js it runs on. */
export interface BuildInfo {
  version: string;
  commit: string;
  node: string;
}

/** This process's build; `commit` is BUILD_COMMIT (config.ts), `unknown` where the build set none. */
export function buildInfoOf(commit: string): BuildInfo {
  return { version: serverPackage.version, commit, node: process.version };
}
