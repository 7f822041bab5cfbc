// bench/tracing-cost: the gateway's CPU per request with OpenTelemetry tracing off, on (a server and a client span
// per request, exported in batches over OTLP/HTTP to a receiver that discards them) and on with detailed_tracing (a
// span per pipeline step too); three gateway processes (one worker each) serving the same keyless API, measured in
// interleaved rounds. CPU is user + system of each gateway's process tree from /proc (bench/process-cpu.ts) per
// request served, the figure a shared machine does not blur.
//   node scripts/node24.mjs node bench/tracing-cost.ts [--requests 20000 --rounds 3 --connections 20]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { REPO_ROOT } from '../src/up/paths.ts';
import { freePorts } from '../src/up/ports.ts';
import { treeCpuUs } from './process-cpu.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '20' } },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);

const listen = (server: ReturnType<typeof createServer>): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const upstreamPort = await listen(createServer((_req, res) => res.end('ok')));
let exported = 0;
const receiverPort = await listen(
  createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (exported += chunk.length));
    req.on('end', () => res.end());
  }),
);

interface Scenario {
  name: string;
  process: ChildProcess;
  pool: Pool;
  cpuUs: number[];
}

async function startGateway(name: string, opentelemetry: Record<string, unknown>, detailed: boolean): Promise<Scenario> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-tracing-'));
  const [port] = await freePorts(1);
  const api = {
    name: 'bench',
    api_id: 'bench',
    use_keyless: true,
    detailed_tracing: detailed,
    proxy: { listen_path: '/bench', target_url: `http://127.0.0.1:${upstreamPort}`, strip_listen_path: true },
  };
  writeFileSync(join(dir, 'bench.json'), JSON.stringify(api));
  const config = {
    listen_address: '127.0.0.1',
    listen_port: port,
    secret: 'bench-secret',
    workers: 1,
    log_level: 'warn',
    app_path: dir,
    storage: { path: join(dir, 'store') },
    opentelemetry,
  };
  writeFileSync(join(dir, 'gw.json'), JSON.stringify(config));
  const child = spawn(process.execPath, [join(REPO_ROOT, 'src', 'cli.ts'), 'gateway', '--config', join(dir, 'gw.json')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`${name} did not start`);
    await sleep(100);
  }
  return { name, process: child, pool: new Pool(url, { connections: CONNECTIONS, pipelining: 1 }), cpuUs: [] };
}

async function load(pool: Pool, requests: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next++ < requests) {
      const { statusCode, body } = await pool.request({ path: '/bench/x', method: 'GET' });
      await body.dump();
      if (statusCode !== 200) throw new Error(`status ${statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

const otel = { enabled: true, exporter: 'http', endpoint: `127.0.0.1:${receiverPort}` };
const scenarios = [
  await startGateway('tracing off', {}, true),
  await startGateway('tracing on', otel, false),
  await startGateway('tracing on + detailed_tracing', otel, true),
];
for (const s of scenarios) await load(s.pool, 2000); // warm up
for (let round = 0; round < ROUNDS; round++) {
  for (const s of scenarios) {
    const before = treeCpuUs(s.process.pid!);
    await load(s.pool, REQUESTS);
    await sleep(200); // the last batch's export
    s.cpuUs.push((treeCpuUs(s.process.pid!) - before) / REQUESTS);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const off = median(scenarios[0]!.cpuUs);
for (const s of scenarios) {
  const m = median(s.cpuUs);
  console.log(
    `${s.name.padEnd(32)} ${m.toFixed(1).padStart(7)} µs CPU/request  ${(m / off).toFixed(3)}x off  (rounds: ${s.cpuUs.map((x) => x.toFixed(1)).join(', ')})`,
  );
}
console.log(`exported ${(exported / 1024).toFixed(0)} KiB of OTLP`);
for (const s of scenarios) {
  await s.pool.close();
  s.process.kill('SIGTERM');
}
process.exit(0);
