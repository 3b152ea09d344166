import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Two builds (scripts/build.mjs): the browser's, from src/entry.client.tsx, with a manifest the server reads
 * to name the hashed files in each page; and the server renderer, `--ssr src/entry.server.tsx` into
 * dist-server/, with our workspace packages (TypeScript source) bundled in and npm packages left external.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  publicDir: isSsrBuild ? false : 'public',
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, sourcemap: true, copyPublicDir: false, target: 'node20' }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        target: 'es2022',
        rollupOptions: { input: 'src/entry.client.tsx' },
      },
  ssr: { noExternal: ['@hornada/domain'] },
  // `npm run dev` runs no Vite server of its own: the Fastify server creates one in middleware mode
  // (apps/server/src/modules/web/web.dev.ts), so pages, API and hot reload share one origin.
}));
