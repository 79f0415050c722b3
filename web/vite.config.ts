import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The dashboard: built into web/dist with content-hashed asset names, served at `/`. */
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  // The runtime serves /config.json and the API on the same origin; the dev server forwards to it.
  server: { proxy: { '/v1': 'http://127.0.0.1:3000', '/oidc': 'http://127.0.0.1:3000', '/config.json': 'http://127.0.0.1:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // The initial JavaScript budget (200 KB gzipped) is measured by the bench, not by this warning.
    chunkSizeWarningLimit: 800,
    rolldownOptions: { output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/[name]-[hash].js', assetFileNames: 'assets/[name]-[hash][extname]' } },
  },
});
