// `npm run dev`: one process, the server under `tsx watch` (restarted when its code changes) with
// HORNADA_DEV_WEB=1, which makes it serve the web app from source through Vite in middleware mode: pages
// rendered from source on each request, and hot module replacement (React Fast Refresh) in the browser on
// the same port. Vite watches the web app itself, so tsx leaves apps/web alone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const child = spawn(
  path.join(root, 'node_modules/.bin/tsx'),
  ['watch', '--clear-screen=false', '--exclude', 'apps/web/**', 'apps/server/src/server.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, HORNADA_DEV_WEB: '1' } },
);
// The server prints its URL once it listens.
process.on('SIGINT', () => child.kill('SIGINT'));
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => (process.exitCode = code ?? (signal ? 1 : 0)));
