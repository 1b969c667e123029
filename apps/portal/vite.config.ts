import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Two builds from one config: the browser bundle (`vite build`) and the server renderer
// (`vite build --ssr src/entry-server.tsx`). The server reads the client manifest to link the
// entry's CSS and to name the entry and the requested page's chunks to the start script.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  // The server renderer bundles Mantine instead of importing it from node_modules, where Node
  // would load all ~700 modules of @mantine/core's ESM build (15–30 MiB of the server's memory).
  // The bundle holds only the components the pages use (docs/decisions.md, "Compiled Node apps and
  // memory").
  ssr: { noExternal: ['@mantine/core', '@mantine/hooks', '@mantine/form'] },
  build: isSsrBuild
    ? { outDir: 'dist/server', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        // The entry, and the small script the page carries that starts it after the page has
        // loaded (src/start-scripts.ts).
        rollupOptions: { input: ['src/entry-client.tsx', 'src/start-scripts.ts'] },
      },
}));
