// Builds what `npm start` runs: the web app (Vite: the browser's files and the server renderer) and the server (esbuild, with packages/domain
// bundled in). `--if-stale` skips the build when no source is newer than the last one.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'apps/server/dist/.build-stamp');
const sources = [
  'apps/server/src',
  'apps/server/demo-art',
  'packages/domain/src',
  'apps/web/src',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'package-lock.json',
];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(p).map((f) => newest(path.join(p, f))));
}

if (process.argv.includes('--if-stale') && existsSync(stamp)) {
  const built = statSync(stamp).mtimeMs;
  if (Math.max(...sources.map((s) => newest(path.join(root, s)))) <= built) process.exit(0);
}

const started = performance.now();
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const run = (cmd, args, cwd = root) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });

process.stdout.write('Construyendo Hornada (web y servidor)…\n');
run(bin('vite'), ['build', '--logLevel', 'warn'], path.join(root, 'apps/web'));
// The hashed scripts and stylesheets, compressed once at the highest settings (brotli 11, gzip 9): the
// server sends these files as they are (@fastify/static preCompressed), so no request pays to compress.
const assetsDir = path.join(root, 'apps/web/dist/assets');
for (const name of readdirSync(assetsDir).filter((f) => /\.(?:js|css|svg|json)$/.test(f))) {
  const file = path.join(assetsDir, name);
  const raw = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
}
// The server renderer of the storefront (docs/design.md §1): apps/web/dist-server/entry.server.js.
run(bin('vite'), ['build', '--ssr', 'src/entry.server.tsx', '--logLevel', 'warn'], path.join(root, 'apps/web'));
rmSync(path.join(root, 'apps/server/dist'), { recursive: true, force: true });
await esbuild.build({
  entryPoints: [path.join(root, 'apps/server/src/server.ts')],
  outdir: path.join(root, 'apps/server/dist'),
  // Code loaded only on demand (the demo seed and its picture painter) goes to its own chunk.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      // Our workspace packages are TypeScript source: bundle them. npm packages stay external.
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@hornada/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
cpSync(path.join(root, 'apps/server/src/db/migrations'), path.join(root, 'apps/server/dist/migrations'), {
  recursive: true,
});
writeFileSync(stamp, new Date().toISOString());
process.stdout.write(`Listo en ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
