import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Two builds from one config, as the portal's: the browser bundle (`vite build`) and the server
// renderer (`vite build --ssr src/entry-server.tsx`). The server reads the client manifest to link
// the entry's CSS and script, and serves dist/client/assets below /console/assets: never on a
// tenant's pages.
export default defineConfig(({ isSsrBuild }) => ({
  base: '/console/',
  plugins: [react()],
  // Bundled into the server renderer rather than loaded from node_modules, where Node would load
  // every module of @mantine/core's ESM build (docs/decisions.md, "Compiled Node apps and memory").
  ssr: { noExternal: ['@mantine/core', '@mantine/hooks'] },
  build: isSsrBuild
    ? { outDir: 'dist/server', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        rollupOptions: { input: ['src/entry-client.tsx'] },
      },
}));
