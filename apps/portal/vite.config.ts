import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Two builds from one config: the browser bundle (`vite build`) and the server renderer
// (`vite build --ssr src/entry-server.tsx`). The server reads the client manifest to link the
// entry's CSS and preload the requested page's chunk.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: isSsrBuild
    ? { outDir: 'dist/server', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        rollupOptions: { input: 'src/entry-client.tsx' },
      },
}));
