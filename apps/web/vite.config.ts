import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Two builds (scripts/build.mjs): the browser's, from src/entry.client.tsx, with a manifest the server reads
 * to name the hashed files in each page; and the server renderer, `--ssr src/entry.server.tsx` into
 * dist-server/, self-contained: React and the rest are bundled in with NODE_ENV fixed to production at build
 * time, since the server leaves NODE_ENV unset in development (design §2) and React would otherwise render
 * with its development build, several times slower (measured: bench or autocannon on `/`).
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
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  // In the SSR build everything is bundled (see above); `npm run dev` loads the source with Vite instead.
  ssr: { noExternal: isSsrBuild ? true : ['@hornada/domain'] },
  // `npm run dev` runs no Vite server of its own: the Fastify server creates one in middleware mode
  // (apps/server/src/modules/web/web.dev.ts), so pages, API and hot reload share one origin.
}));
