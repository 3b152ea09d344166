// bench:live's floor, run as a child process: plain Node with nothing of the app, accepting raw sockets
// and writing one event-sized buffer to each of them per round, stamped as the app stamps updatedAt. What
// the app's fan-out costs above this is the app's; what this costs is the machine's (on loopback, a
// socket write also carries the reader's TCP receive work). Told the port over IPC; asked for
// { streams, rounds, intervalMs, eventBytes }; answers with its CPU time and its own fan-out times.
import net from 'node:net';

const sockets = [];
const server = net.createServer((s) => {
  s.setNoDelay(true);
  s.on('error', () => {});
  sockets.push(s);
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

process.on('message', async ({ streams, rounds, intervalMs, eventBytes }) => {
  while (sockets.length < streams) await new Promise((r) => setTimeout(r, 20));
  const cpu0 = process.cpuUsage();
  const fanout = [];
  for (let n = 0; n < rounds; n++) {
    const started = performance.now();
    const head = `id: ${n}\ndata: {"name":"bench-${n}","updatedAt":"${new Date().toISOString()}","p":"`;
    const event = Buffer.from(`${head}${'x'.repeat(Math.max(0, eventBytes - head.length - 4))}"}\n\n`);
    for (const s of sockets) s.write(event);
    fanout.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  const cpu = process.cpuUsage(cpu0);
  process.send({ cpuSeconds: (cpu.user + cpu.system) / 1e6, kernelSeconds: cpu.system / 1e6, fanout });
  for (const s of sockets) s.destroy();
  server.close();
  process.disconnect();
});
