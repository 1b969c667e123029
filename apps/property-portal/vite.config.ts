import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// No env or define here: the provider and client id come from /config.json at run time.
// The browser app goes to dist/client: dist/main.js beside it is the compiled Node server
// (scripts/build-node-apps.mjs), which must neither be emptied away by this build nor served.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
  },
});
