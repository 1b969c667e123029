import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// No env or define here: the provider and client id come from /config.json at run time.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
