// bench/streams: messages per second published through the gateway's HTTP publish endpoint of a streams API
// (x-gw-streaming, each POST answered once the broker confirmed the message) versus published directly to the same
// broker by a client with the same number of messages in flight, in the same run. Brokers: Debian's redis-server
// (XADD) and nats-server (publish + flush).
//
//   node scripts/node24.mjs node bench/streams.ts [--messages 20000] [--inflight 32] [--bytes 256] [--json] [--cpu-prof DIR]
//
// --cpu-prof DIR runs the gateway under `node --cpu-prof` and prints its self time per function (the top 25) after
// the run; the .cpuprofile stays in DIR (open it in Chrome's DevTools).
//
// The gateway runs as `bin/gw gateway` (its own process); this process is the load generator for both paths.
// On 2 shared cores the absolute numbers move with the machine's load; the ratio is the figure, and the gateway's
// own CPU per message (its process's utime + stime over the run, bench/process-cpu.ts) does not depend on the load.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import { Pool, request } from 'undici';
import { freePort } from '../src/up/ports.ts';
import { treeCpuUs } from './process-cpu.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    inflight: { type: 'string', default: '32' },
    bytes: { type: 'string', default: '256' },
    json: { type: 'boolean' },
    'cpu-prof': { type: 'string' },
  },
});
const MESSAGES = Number(values.messages);
const INFLIGHT = Number(values.inflight);
const payload = Buffer.alloc(Number(values.bytes), 'x');
const SECRET = 'bench-streams-secret';
const profileDir = values['cpu-prof'];

const work = mkdtempSync(join(tmpdir(), 'gw-bench-streams-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

function start(command: string, args: string[]): ChildProcess {
  // Brokers' own logs are not the bench's output; the gateway's warnings are.
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', args.includes('gateway') ? 'inherit' : 'ignore'] });
  children.push(child);
  return child;
}

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await probe().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`${what} did not come up`);
}

/** Runs `send` MESSAGES times with INFLIGHT at once; messages per second. */
async function rate(send: () => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next++ < MESSAGES) await send();
    }),
  );
  return Math.round(MESSAGES / ((performance.now() - started) / 1000));
}

/** `rate` through the gateway, with the gateway's CPU per message (µs). */
async function gatewayRate(send: () => Promise<void>): Promise<{ rate: number; gatewayCpuUs: number }> {
  const before = treeCpuUs(gateway.pid!);
  const measured = await rate(send);
  return { rate: measured, gatewayCpuUs: Math.round((treeCpuUs(gateway.pid!) - before) / MESSAGES) };
}

const [redisPort, natsPort, gwPort] = [await freePort(), await freePort(), await freePort()];
start('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work]);
start('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)]);
const configFile = join(work, 'gateway.json');
writeFileSync(
  configFile,
  JSON.stringify({
    listen_address: '127.0.0.1',
    listen_port: gwPort,
    secret: SECRET,
    log_level: 'warn',
    storage: { path: join(work, 'store') },
    app_path: join(work, 'apps'),
  }),
);
const gwBin = join(import.meta.dirname, '..', 'bin', 'gw');
if (profileDir) mkdirSync(profileDir, { recursive: true });
const gateway = profileDir
  ? start(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profileDir, gwBin, 'gateway', '--config', configFile])
  : start(gwBin, ['gateway', '--config', configFile]);
const gw = `http://127.0.0.1:${gwPort}`;
await until('the gateway', async () => (await (await fetch(`${gw}/ready`)).text()) !== '');

const redisUrl = `redis://127.0.0.1:${redisPort}`;
const natsUrl = `nats://127.0.0.1:${natsPort}`;
const api = {
  openapi: '3.0.3',
  info: { title: 'bench', version: '1' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id: 'bench', name: 'bench', state: { active: true } },
    upstream: { url: 'http://127.0.0.1:9' },
    server: { listenPath: { value: '/bench', strip: true } },
  },
  'x-gw-streaming': {
    streams: {
      redis: { input: { http_server: { path: '/redis' } }, output: { redis_streams: { url: redisUrl, stream: 'bench-via-gw' } } },
      nats: { input: { http_server: { path: '/nats' } }, output: { nats: { urls: [natsUrl], subject: 'bench.gw' } } },
    },
  },
};
const admin = { 'x-gw-authorization': SECRET, 'content-type': 'application/json' };
const created = await request(`${gw}/gw/apis/oas`, { method: 'POST', headers: admin, body: JSON.stringify(api) });
if (created.statusCode !== 200) throw new Error(`creating the API: ${created.statusCode} ${await created.body.text()}`);
await (await request(`${gw}/gw/reload?block=true`, { headers: admin })).body.dump();

const pool = new Pool(gw, { connections: INFLIGHT, pipelining: 1 });
const viaGateway = (path: string) => async (): Promise<void> => {
  const response = await pool.request({ method: 'POST', path, body: payload });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
};
await until('the streams API', async () => {
  await viaGateway('/bench/redis')();
  await viaGateway('/bench/nats')();
  return true;
});

const redis = new Redis(redisUrl);
const nats = await connect({ servers: natsUrl });
const results = {
  messages: MESSAGES,
  inflight: INFLIGHT,
  bytes: payload.length,
  redis: {
    direct: await rate(async () => void (await redis.xadd('bench-direct', '*', 'body', payload))),
    ...(await gatewayRate(viaGateway('/bench/redis')).then(({ rate, gatewayCpuUs }) => ({ gateway: rate, gatewayCpuUs }))),
  },
  nats: {
    direct: await rate(async () => {
      nats.publish('bench.direct', payload);
      await nats.flush();
    }),
    ...(await gatewayRate(viaGateway('/bench/nats')).then(({ rate, gatewayCpuUs }) => ({ gateway: rate, gatewayCpuUs }))),
  },
};
redis.disconnect();
await nats.close();
await pool.close();
if (values.json) process.stdout.write(`${JSON.stringify(results)}\n`);
else {
  process.stdout.write(`streams: ${MESSAGES} messages of ${payload.length} B, ${INFLIGHT} in flight (messages/s, each confirmed by the broker)\n`);
  for (const broker of ['redis', 'nats'] as const) {
    const { direct, gateway, gatewayCpuUs } = results[broker];
    process.stdout.write(
      `  ${broker.padEnd(6)} direct ${String(direct).padStart(7)}   through the gateway ${String(gateway).padStart(7)}   (${Math.round((gateway / direct) * 100)}%)   gateway CPU ${gatewayCpuUs} µs/message\n`,
    );
  }
}
if (profileDir) {
  // The profile is written when the gateway exits: SIGTERM is its graceful shutdown.
  const exited = new Promise((resolve) => gateway.once('exit', resolve));
  gateway.kill('SIGTERM');
  await exited;
  printSelfTimes(profileDir);
}
process.exit(0);

/** The newest .cpuprofile in `dir`: self time per function (name, file:line), the top 25, as a share of samples. */
function printSelfTimes(dir: string): void {
  const newest = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!newest) return void process.stdout.write(`no .cpuprofile in ${dir}\n`);
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
  const profile = JSON.parse(readFileSync(join(dir, newest), 'utf8')) as { nodes: Node[]; samples: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}`;
    self.set(where, (self.get(where) ?? 0) + 1);
  }
  process.stdout.write(`gateway self time (${join(dir, newest)}, ${profile.samples.length} samples):\n`);
  for (const [where, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    process.stdout.write(`  ${((count / profile.samples.length) * 100).toFixed(1).padStart(5)}%  ${where}\n`);
  }
}
