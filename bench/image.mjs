// `npm run test:image`: the production image of deploy/Dockerfile, put together and run without a container
// daemon (this machine has none, so `docker build` itself is not run here). The Dockerfile is read, not
// copied: its stages' COPY lines build the image's /app in a temporary directory, so a file the server
// needs at run time that the Dockerfile forgets to copy, or a dependency it needs that `npm ci
// --omit=dev` leaves out, fails here.
//
// - The "build" stage (full `npm ci`, then `node scripts/build.mjs`) is this checkout after its own build:
//   the same command on the same sources; the other stages the final one copies from (the manifests, the
//   production dependencies) are run: their COPY lines, then their RUN lines in their directory.
// - The final stage: its COPY lines, its ENV (PORT, HOST and DATA_DIR moved to a free port, loopback and a
//   temporary directory; its RUN only prepares /var/lib/hornada, which that directory stands in for), its
//   CMD run as an unprivileged user (`nobody` when this runs as root) with what an operator sets
//   (docs/operations.md): DATABASE_URL (a new database on DATABASE_URL's server, by default the machine's
//   PostgreSQL), PUBLIC_URL, a JWT_PRIVATE_KEY made for the run, PAYMENT_GATEWAY=sandbox.
//
// Passes when the server answers /api/health, the storefront page and its script, the HEALTHCHECK command
// exits 0, `node scripts/backup.mjs` inside the image copies the database, and SIGTERM stops the server
// with exit code 0. Prints each check and the image's size.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import { freePort, MACHINE_PG, root, scratchDatabase, sleep, tempDir } from './lib.mjs';

const started = performance.now();
const log = (msg) =>
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  ${msg}\n`);
const checks = [];
const check = (name, ok, detail = '') => {
  checks.push({ name, ok });
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
};

/** The Dockerfile's instructions by stage: continuation lines joined, comments left out. */
function readDockerfile(file) {
  const lines = [];
  let pending = '';
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    if (!pending && /^\s*(#|$)/.test(raw)) continue;
    if (raw.endsWith('\\')) {
      pending += `${raw.slice(0, -1)} `;
      continue;
    }
    lines.push((pending + raw).trim());
    pending = '';
  }
  const stages = [];
  for (const line of lines) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op) throw new Error(`Dockerfile: cannot read "${line}"`);
    if (op.toUpperCase() === 'FROM') {
      const [, base, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      stages.push({ base, name: name ?? null, steps: [] });
    } else stages.at(-1).steps.push({ op: op.toUpperCase(), args: rest });
  }
  return stages;
}

/** ENV k=v k2=v2 (double quotes allowed). */
function envOf(args) {
  const out = {};
  for (const m of args.matchAll(/(\w+)=("([^"]*)"|\S+)/g)) out[m[1]] = m[3] ?? m[2];
  return out;
}

const stages = readDockerfile(path.join(root, 'deploy/Dockerfile'));
const byName = new Map(stages.filter((s) => s.name).map((s) => [s.name, s]));
const final = stages.at(-1);
const work = tempDir('hornada-image-');
chmodSync(work, 0o755);
// Whatever happens (a RUN that fails throws), the image's 400 MB do not stay behind.
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
/** Each stage's /app (its WORKDIR) as a directory here. */
const dirs = new Map([['build', root]]);

/** The WORKDIR a stage ends with (inherited from the stage it starts from); its /app is its directory. */
function workdirOf(stage) {
  const own = stage.steps.findLast((s) => s.op === 'WORKDIR')?.args;
  return own ?? (byName.has(stage.base) ? workdirOf(byName.get(stage.base)) : '/');
}

/** COPY: `sources` of the context or of a stage (`workdir` its WORKDIR) into `dest` of the stage at `into`. */
function copy(from, workdir, sources, dest, into) {
  const target = path.join(into, dest);
  const many = sources.length > 1 || dest.endsWith('/');
  for (const src of sources) {
    const inStage = path.posix.isAbsolute(src) ? path.posix.relative(workdir, src) : src;
    if (inStage.startsWith('..')) throw new Error(`COPY ${src}: outside ${workdir}, not emulated here`);
    const source = path.join(from, inStage);
    statSync(source); // a source that is not there fails the run, as docker build would
    const to = many ? path.join(target, path.basename(src)) : target;
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(source, to, { recursive: true, verbatimSymlinks: true });
  }
}

/** Builds a stage (and the ones it starts from or copies from) into its directory; returns it. */
function buildStage(name) {
  if (dirs.has(name)) return dirs.get(name);
  const stage = byName.get(name);
  if (!stage) throw new Error(`Dockerfile: no stage "${name}"`);
  const dir = byName.has(stage.base) ? cpStage(buildStage(stage.base), name) : mkStage(name);
  runSteps(stage, dir, true);
  dirs.set(name, dir);
  return dir;
}
const mkStage = (name) => {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const cpStage = (from, name) => {
  const dir = mkStage(name);
  cpSync(from, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
};

function runSteps(stage, dir, runCommands) {
  for (const { op, args } of stage.steps) {
    if (op === 'COPY') {
      const parts = args.split(/\s+/);
      const fromFlag = parts[0].startsWith('--from=') ? parts.shift().slice('--from='.length) : null;
      const dest = parts.pop();
      const fromStage = fromFlag ? byName.get(fromFlag) : null;
      copy(fromFlag ? buildStage(fromFlag) : root, fromStage ? workdirOf(fromStage) : '/', parts, dest, dir);
    } else if (op === 'RUN' && runCommands) {
      const t = performance.now();
      const r = spawnSync('sh', ['-c', args], { cwd: dir, encoding: 'utf8', env: process.env });
      if (r.status !== 0) throw new Error(`RUN ${args} (stage ${stage.name}):\n${r.stdout}\n${r.stderr}`);
      log(`stage ${stage.name}: RUN ${args} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
  }
}

const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(1);

const image = mkStage('final');
runSteps(final, image, false);
const size = spawnSync('du', ['-sm', image], { encoding: 'utf8' }).stdout.split('\t')[0];
log(`image's /app put together from deploy/Dockerfile: ${size} MB`);

const finalEnv = Object.assign({}, ...final.steps.filter((s) => s.op === 'ENV').map((s) => envOf(s.args)));
const cmd = JSON.parse(final.steps.findLast((s) => s.op === 'CMD').args);
const healthcheck = /CMD\s+(.*)$/.exec(final.steps.findLast((s) => s.op === 'HEALTHCHECK')?.args ?? '')?.[1];
const user = final.steps.findLast((s) => s.op === 'USER')?.args;
check('the image runs as a user other than root', Boolean(user) && user !== 'root' && user !== '0', `USER ${user}`);
check('NODE_ENV is production', finalEnv.NODE_ENV === 'production');

// As root, the server runs as `nobody` (the image's user does not exist here): it reads the files, and
// writes only its DATA_DIR, as in the image. setpriv execs the command itself, so a signal reaches it.
const asRoot = process.getuid?.() === 0;
const runAs = (argv) =>
  asRoot
    ? ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', ...argv]]
    : [argv[0], argv.slice(1)];
const dataDir = path.join(work, 'data');
mkdirSync(dataDir);
if (asRoot) {
  const nobody = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim();
  chownSync(dataDir, Number(nobody), Number(nobody));
  spawnSync('chmod', ['-R', 'a+rX', image]);
}

const database = await scratchDatabase(process.env.DATABASE_URL || MACHINE_PG, 'hornada_image');
const port = await freePort();
const { privateKey } = await generateKeyPair('ES256', { extractable: true });
const env = {
  PATH: process.env.PATH,
  ...finalEnv,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: database.url,
  PUBLIC_URL: `http://localhost:${port}`,
  JWT_PRIVATE_KEY: await exportPKCS8(privateKey),
  PAYMENT_GATEWAY: 'sandbox',
};

let server;
let output = '';
try {
  const [bin, args] = runAs(cmd);
  server = spawn(bin, args, { cwd: image, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));
  const exited = new Promise((r) => server.on('exit', (code, signal) => r({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  let healthy = false;
  for (const until = Date.now() + 60_000; Date.now() < until && server.exitCode === null; await sleep(100)) {
    healthy = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
  }
  check(`CMD ${cmd.join(' ')} answers /api/health`, healthy, healthy ? '' : output.slice(-2000));
  if (healthy) {
    const home = await fetch(`http://localhost:${port}/`);
    const html = await home.text();
    const script = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
    check(
      'the storefront page renders',
      home.status === 200 && html.includes('<html'),
      `${home.status}, ${html.length} bytes`,
    );
    const js = script ? await fetch(`http://localhost:${port}${script}`) : null;
    check('its script is served', js?.status === 200, script ?? 'no script in the page');
    if (healthcheck) {
      const [hb, ha] = runAs(['sh', '-c', healthcheck]);
      const hc = spawnSync(hb, ha, { cwd: image, env, encoding: 'utf8', timeout: 10_000 });
      check('HEALTHCHECK exits 0', hc.status === 0, `exit ${hc.status}`);
    } else check('a HEALTHCHECK is declared', false);
    const backupDir = path.join(dataDir, 'backup');
    const [bb, ba] = runAs(['node', 'scripts/backup.mjs', backupDir]);
    const backup = spawnSync(bb, ba, { cwd: image, env, encoding: 'utf8', timeout: 60_000 });
    check(
      'node scripts/backup.mjs inside the image',
      backup.status === 0 && JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) !== null,
      (backup.stdout + backup.stderr).trim().split('\n').at(-1),
    );
  }
  // SIGTERM to the server alone, as `docker stop` sends it to the CMD.
  server.kill('SIGTERM');
  const result = await Promise.race([exited, sleep(15_000).then(() => null)]);
  check(
    'SIGTERM stops it with exit code 0',
    result?.code === 0,
    result ? `code ${result.code}` : 'still running after 15 s',
  );
} finally {
  if (server?.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    await sleep(200);
  }
  await database.drop();
}

const failed = checks.filter((c) => !c.ok).length;
const pass = failed === 0;
process.stdout.write(`${pass ? 'PASS' : 'FAIL'}: ${checks.length - failed} of ${checks.length} checks\n`);
if (process.env.RESULTS_FILE) {
  writeFileSync(process.env.RESULTS_FILE, JSON.stringify({ passed: pass ? 1 : 0, failed: pass ? 0 : 1, skipped: 0 }));
}
process.exit(pass ? 0 : 1);
