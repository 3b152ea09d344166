// The production topology of deploy/compose.yaml, started as processes on this machine (no container
// daemon here): one PostgreSQL (the machine's server, DATABASE_URL, a fresh database on it), an
// S3-compatible store (s3rver, in this process), three app instances with NODE_ENV=production on their
// own ports (the signing key and every setting from the environment, files in the bucket), and
// Debian's HAProxy in front, balancing them round-robin, health-checking /api/health, passing event
// streams through unbuffered. `npm run topology` starts it with the demo and waits for Ctrl-C;
// bench/scale.mjs (`npm run test:scale`) uses startTopology().
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import S3rver from 's3rver';
import { freePort, MACHINE_PG, scratchDatabase, sleep, startServer, tempDir, waitHealthy } from './lib.mjs';

const BASE_PORT = Number(process.env.TOPOLOGY_PORT ?? 4100);
const BUCKET = 'hornada-files';

/** Ports: the proxy on BASE_PORT, the instances on the next three, s3rver on the fifth. */
export async function startTopology({ instances = 3, env = {}, log = (s) => process.stdout.write(`${s}\n`) } = {}) {
  const dir = tempDir('hornada-topology-');
  const scratch = await scratchDatabase(process.env.DATABASE_URL || MACHINE_PG, 'hornada_topology');
  const databaseUrl = scratch.url;

  const s3Port = BASE_PORT + instances + 1;
  mkdirSync(path.join(dir, 's3'));
  const s3 = new S3rver({
    port: s3Port,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(dir, 's3'),
    configureBuckets: [{ name: BUCKET }],
  });
  await s3.run();
  const children = [];
  try {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const proxyPort = BASE_PORT;
    const publicUrl = `http://127.0.0.1:${proxyPort}`;
    const common = {
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      JWT_PRIVATE_KEY: await exportPKCS8(privateKey),
      PAYMENT_GATEWAY: 'sandbox',
      // The local geocoder, as the payment sandbox: production's (OpenStreetMap's Nominatim) is off this machine.
      GEOCODER: 'stand-in',
      STORAGE: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'on',
      // The proxy's X-Forwarded-For is believed from loopback only.
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    };

    // The demo is seeded once by a development start on the same database and bucket (production never
    // seeds), then the production instances start on what it wrote.
    const seedPort = await freePort();
    mkdirSync(path.join(dir, 'seed'), { recursive: true });
    const seeder = startServer({
      port: seedPort,
      dataDir: path.join(dir, 'seed'),
      env: { ...common, NODE_ENV: 'development', SEED_DEMO: 'on' },
    });
    children.push(seeder.child);
    if (!(await waitHealthy(seedPort, 300_000))) throw new Error(`the demo seed did not finish:\n${seeder.output()}`);
    seeder.child.kill('SIGTERM');
    await seeder.exited;
    log('demo seeded into the database and the bucket');

    const nodes = [];
    const startNode = async (i) => {
      const port = BASE_PORT + 1 + i;
      const dataDir = path.join(dir, `app${i + 1}`);
      mkdirSync(dataDir, { recursive: true });
      const server = startServer({ port, dataDir, env: { ...common, NODE_ENV: 'production' } });
      children.push(server.child);
      nodes[i] = { name: `app${i + 1}`, port, server, base: `http://127.0.0.1:${port}` };
      if (!(await waitHealthy(port, 60_000))) throw new Error(`app${i + 1} did not start:\n${server.output()}`);
      return nodes[i];
    };
    await Promise.all(Array.from({ length: instances }, (_, i) => startNode(i)));
    log(`${instances} instances with NODE_ENV=production on ports ${nodes.map((n) => n.port).join(', ')}`);

    const cfg = path.join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig(proxyPort, nodes));
    const proxy = spawn('haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(proxy);
    let proxyOut = '';
    proxy.stdout.on('data', (d) => (proxyOut += d));
    proxy.stderr.on('data', (d) => (proxyOut += d));
    // Not installed (ENOENT): said, and the start fails below, stopping the instances (an unhandled 'error'
    // ended the process and left them running on their ports).
    proxy.on('error', (err) => (proxyOut += `${err.message}\n`));
    if (!(await waitHealthy(proxyPort, 10_000))) throw new Error(`haproxy did not start:\n${proxyOut}`);
    log(`HAProxy on ${publicUrl}`);
    return {
      publicUrl,
      databaseUrl,
      nodes,
      proxyOutput: () => proxyOut,
      /** SIGKILLs instance i (no goodbye: its sockets and streams just end). */
      async kill(i) {
        nodes[i].server.child.kill('SIGKILL');
        await nodes[i].server.exited;
      },
      /** Starts instance i again on its port, as a supervisor would. */
      restart: (i) => startNode(i),
      async stop() {
        proxy.kill('SIGTERM');
        await Promise.all(nodes.map((n) => n.server.stop()));
        await s3.close();
        await scratch.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    // Nothing of a failed start is left running.
    for (const c of children) c.kill('SIGKILL');
    await s3.close();
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** HAProxy in front of the instances: round-robin, /api/health checked every 500 ms, streams unbuffered. */
export function haproxyConfig(port, nodes) {
  return `global
  maxconn 4000

defaults
  mode http
  option forwardfor
  # A new connection to the instance for each request: never a request sent on a connection the
  # instance is closing at that moment (which HAProxy can only answer 502).
  option http-server-close
  timeout connect 2s
  timeout client 65s
  # Past the event stream's 25 s heartbeat; HAProxy forwards its bytes as they come (no buffering).
  timeout server 65s
  timeout tunnel 1h
  timeout http-keep-alive 10s
  # A request whose instance refused the connection goes to another.
  retries 2
  option redispatch

frontend web
  bind 127.0.0.1:${port}
  # The Host header passes through unchanged: it picks the bakery ({slug}.{PUBLIC_URL host} or a domain).
  # A client's own X-Forwarded-Host is dropped: the app believes that header from this proxy (TRUST_PROXY).
  http-request del-header X-Forwarded-Host
  default_backend app

backend app
  balance roundrobin
  option httpchk GET /api/health
  http-check expect status 200
  # A check slower than 3 s fails (a busy instance answers within it); three failures take the instance
  # out, its requests under way finishing. A dead one refuses connections: those go to another (redispatch).
  timeout check 3s
  default-server inter 1s fall 3 rise 2
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check`).join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (spawnSync('haproxy', ['-v']).status !== 0) {
    process.stderr.write('HAProxy no está instalado: apt-get install -y haproxy\n');
    process.exit(1);
  }
  const t = await startTopology();
  process.stdout.write(`Hornada detrás de HAProxy en ${t.publicUrl} (Ctrl-C para detener)\n`);
  const stop = async () => {
    await t.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (;;) await sleep(60_000);
}
