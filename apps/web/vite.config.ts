import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { ChunkingContext } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';

// React Router's package exports only its development build (dev warnings on); the build uses the production
// one beside it, as its own framework plugin does (0.6 KB gzip less in the first load).
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

/**
 * Two builds (scripts/build.mjs): the browser's, from src/entry.client.tsx, with a manifest the server reads
 * to name the hashed files in each page; and the server renderer, `--ssr src/entry.server.tsx` into
 * dist-server/, self-contained: React and the rest are bundled in with NODE_ENV fixed to production at build
 * time, since the server leaves NODE_ENV unset in development (docs/design.md §2) and React would otherwise render
 * with its development build, several times slower (measured: bench or autocannon on `/`).
 */
/**
 * Every module the entry loads statically goes into one chunk: left to itself the bundler cut the first page's
 * code into a dozen chunks (whatever each lazy screen shared with it), and each small file compresses worse.
 */
const CLIENT_ENTRY = fileURLToPath(new URL('src/entry.client.tsx', import.meta.url));
let firstLoad: Set<string> | null = null;
function firstLoadChunk(id: string, ctx: ChunkingContext): string | null {
  if (!firstLoad) {
    const seen = new Set<string>();
    const stack = [CLIENT_ENTRY];
    while (stack.length) {
      const next = stack.pop()!;
      // lucide's index re-exports every icon: following it would put the back office's icons in the first
      // load. The storefront imports its icons one by one (`lucide-react/icons/x`).
      if (seen.has(next) || next.endsWith('/lucide-react/dist/esm/lucide-react.mjs')) continue;
      seen.add(next);
      stack.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
    firstLoad = seen;
  }
  // The entry itself stays out: it awaits the first route's lazy chunk, which imports this chunk; were the
  // entry inside it, that import would wait on the entry's own top-level await (a deadlock).
  return id !== CLIENT_ENTRY && firstLoad.has(id) ? 'app' : null;
}

/**
 * React Router's components are `var Form = React.forwardRef(…)` followed by `Form.displayName = "Form"`: neither
 * statement reads as free of side effects, so every component (Form, ScrollRestoration, the history router…) and
 * what it calls stayed in the first load whether the app used it or not. Marking those calls pure and dropping
 * the display names (React's developer tools show them; the production build has none to show) lets the bundler
 * leave out what no module imports: 1.3 KB gzip of the first load. Lines stay where they were, so the source map
 * holds.
 */
/**
 * What only React Router's framework mode (its Vite plugin, RSC) uses, reached from code every app loads: `Link`
 * renders `PrefetchPageLinks` and calls `usePrefetchBehavior`, the error boundary wraps `RSCErrorHandler`, the
 * router calls `instrumentClientSideRouter`; each does nothing without the framework's context or options, which
 * this app never provides. Each is given the body it takes in that case, and its real body (renamed) is left for
 * the bundler to drop: 2.1 KB gzip of the first load.
 */
const FRAMEWORK_ONLY: Readonly<Record<string, { params: string; body: string }>> = {
  PrefetchPageLinks: { params: '', body: 'return null;' },
  usePrefetchBehavior: { params: '', body: 'return [false, null, {}];' },
  RSCErrorHandler: { params: '{ children }', body: 'return children;' },
  instrumentClientSideRouter: { params: 'router', body: 'return router;' },
};

const treeShakeReactRouter: Plugin = {
  name: 'hornada:tree-shake-react-router',
  apply: 'build',
  transform(code, id) {
    if (!id.includes('/react-router/dist/production/')) return null;
    let out = code
      .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, '')
      .replace(/^var ([\w$]+) = (React\d*\.(?:forwardRef|memo|createContext)\()/gm, 'var $1 = /* @__PURE__ */ $2');
    for (const [name, { params, body }] of Object.entries(FRAMEWORK_ONLY)) {
      const declaration = new RegExp(`^function ${name}\\(`, 'm');
      if (!declaration.test(out)) continue;
      // On the same line, so the source map holds.
      out = out.replace(declaration, `function ${name}(${params}) { ${body} } function frameworkOnly_${name}(`);
    }
    return { code: out, map: null };
  },
};

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), treeShakeReactRouter],
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  publicDir: isSsrBuild ? false : 'public',
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, sourcemap: true, copyPublicDir: false, target: 'node20' }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        target: 'es2022',
        rollupOptions: {
          input: 'src/entry.client.tsx',
          output: {
            codeSplitting: { groups: [{ name: firstLoadChunk, debugName: 'first-load' }] },
            // The first load names every lazy chunk its pages may preload, each hash incompressible: seven
            // characters (42 bits; the bundler's least for this many chunks) instead of eight keep that table small.
            chunkFileNames: 'assets/[name]-[hash:7].js',
          },
        },
      },
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  // In the SSR build everything is bundled (see above); `npm run dev` loads the source with Vite instead.
  ssr: { noExternal: isSsrBuild ? true : ['@hornada/domain'] },
  // `npm run dev` runs no Vite server of its own: the Fastify server creates one in middleware mode
  // (apps/server/src/modules/web/web.dev.ts), so pages, API and hot reload share one origin.
}));
