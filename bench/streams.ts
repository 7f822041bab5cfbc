// bench/streams: messages per second published through the gateway's HTTP publish endpoint of a streams API
// (x-gw-streaming, each POST answered once the broker confirmed the message) versus published directly to the same
// broker by a client with the same number of messages in flight, in the same run. Brokers: Debian's redis-server
// (XADD) and nats-server (publish + flush).
//
//   node scripts/node24.mjs node bench/streams.ts [--messages 20000] [--inflight 32] [--bytes 256] [--rounds 3] [--json] [--pin] [--cpu-prof DIR]
//                                                [--only redis|nats] [--workers N] [--cpus LIST]
//
// --only BROKER measures that broker alone (a profile of one broker's path). --workers N runs the gateway with N
// worker threads (default 0: the gateway's own default, one per core). --cpus LIST (taskset's, e.g. `0`) keeps every
// process of the run on those CPUs (a profile taken while another CPU is reserved for other work); it is ignored
// with --pin.
//
// --cpu-prof DIR runs the gateway under `node --cpu-prof` and prints its self time per function (the top 25) after
// the run; the .cpuprofile stays in DIR (open it in Chrome's DevTools).
//
// The gateway runs as `bin/gw gateway` (its own process); with --pin alone on the last CPU (taskset), the brokers
// and the load generators sharing the others, as bench/proxy places a proxy and its load (on a machine busy with
// other work, pinning holds the gateway on a CPU the scheduler would move it off: leave --pin out there).
// Directly, this process publishes with the brokers' own clients (ioredis, nats); through the gateway, wrk POSTs
// the same payload on INFLIGHT keep-alive connections (a closed loop: a connection sends its next message once the
// last one was answered), for as long as the direct run took. Both sides are the same publishers: INFLIGHT at once, the same payload, each
// waiting for its own acknowledgement (an XADD reply, a flush's PONG; a 200) before its next message; the direct
// Redis client writes each XADD on its own, the gateway the XADDs of one event-loop turn in one write. An HTTP load generator in this process (undici) would spend several times the CPU per
// message of a broker client on the core the brokers share, and measure that instead of the gateway.
// On shared cores the absolute numbers move with the machine's load; the ratio is the figure, and the gateway's
// own CPU per message (its process's utime + stime over the run, bench/process-cpu.ts) does not depend on the load.
// Needs redis-server, nats-server, wrk and taskset (Debian: redis-server, nats-server, wrk, util-linux).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import { request } from 'undici';
import { freePort } from '../src/up/ports.ts';
import { treeCpuUs } from './process-cpu.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    inflight: { type: 'string', default: '32' },
    bytes: { type: 'string', default: '256' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean' },
    'cpu-prof': { type: 'string' },
    pin: { type: 'boolean' },
    only: { type: 'string' },
    workers: { type: 'string', default: '0' },
    cpus: { type: 'string' },
  },
});
const MESSAGES = Number(values.messages);
const INFLIGHT = Number(values.inflight);
const ROUNDS = Number(values.rounds);
const WARMUP = Math.ceil(MESSAGES / 4);
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

const CPUS = availableParallelism();
const ALL_CPUS = values.cpus ?? `0-${CPUS - 1}`;
/** --pin: the gateway alone on the last CPU, everyone else on the others; otherwise all may use every CPU. */
const GATEWAY_CPU = values.pin && CPUS > 1 ? String(CPUS - 1) : ALL_CPUS;
const OTHER_CPUS = values.pin && CPUS > 1 ? `0-${CPUS - 2}` : ALL_CPUS;

function start(cpus: string, command: string, args: string[]): ChildProcess {
  // Brokers' own logs are not the bench's output; the gateway's warnings are.
  const child = spawn('taskset', ['-c', cpus, command, ...args], { stdio: ['ignore', 'ignore', args.includes('gateway') ? 'inherit' : 'ignore'] });
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

/** Runs `send` `messages` times with INFLIGHT at once; messages per second. */
async function rate(send: () => Promise<void>, messages = MESSAGES): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next++ < messages) await send();
    }),
  );
  return Math.round(messages / ((performance.now() - started) / 1000));
}

const run = promisify(execFile);
const wrkScript = join(work, 'post.lua');
writeFileSync(wrkScript, `wrk.method = "POST"\nwrk.body = string.rep("x", ${payload.length})\n`);

/** wrk POSTing to `path` for `seconds`: messages per second and the gateway's CPU per message (µs). */
async function viaGateway(path: string, seconds: number): Promise<{ rate: number; gatewayCpuUs: number }> {
  const before = treeCpuUs(gateway.pid!);
  const args = ['-c', OTHER_CPUS, 'wrk', '-t1', `-c${INFLIGHT}`, '-d', `${Math.max(1, Math.round(seconds))}s`, '-s', wrkScript, `${gw}${path}`];
  const { stdout: out } = await run('taskset', args, { encoding: 'utf8' });
  const cpuUs = treeCpuUs(gateway.pid!) - before;
  const failed = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  if (failed) throw new Error(`${path}: ${failed[1]} messages not confirmed during the run`);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  if (!(requests > 0)) throw new Error(`no requests counted in wrk's output:\n${out}`);
  return { rate: Math.round(perSecond), gatewayCpuUs: Math.round(cpuUs / requests) };
}

const [redisPort, natsPort, gwPort] = [await freePort(), await freePort(), await freePort()];
start(OTHER_CPUS, 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work]);
start(OTHER_CPUS, 'nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)]);
const configFile = join(work, 'gateway.json');
writeFileSync(
  configFile,
  JSON.stringify({
    listen_address: '127.0.0.1',
    listen_port: gwPort,
    secret: SECRET,
    log_level: 'warn',
    workers: Number(values.workers),
    storage: { path: join(work, 'store') },
    app_path: join(work, 'apps'),
  }),
);
const gwBin = join(import.meta.dirname, '..', 'bin', 'gw');
if (profileDir) mkdirSync(profileDir, { recursive: true });
const gateway = profileDir
  ? start(GATEWAY_CPU, process.execPath, ['--cpu-prof', '--cpu-prof-dir', profileDir, gwBin, 'gateway', '--config', configFile])
  : start(GATEWAY_CPU, process.execPath, [gwBin, 'gateway', '--config', configFile]);
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

await until('the streams API', async () => {
  for (const path of ['/bench/redis', '/bench/nats']) {
    const response = await request(`${gw}${path}`, { method: 'POST', body: payload });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
  }
  return true;
});

const redis = new Redis(redisUrl);
const nats = await connect({ servers: natsUrl });
interface BenchPaths {
  direct: () => Promise<void>;
  gateway: string;
}
const paths: Record<'redis' | 'nats', BenchPaths> = {
  redis: { direct: async () => void (await redis.xadd('bench-direct', '*', 'body', payload)), gateway: '/bench/redis' },
  nats: {
    direct: async () => {
      nats.publish('bench.direct', payload);
      await nats.flush();
    },
    gateway: '/bench/nats',
  },
};
// Every path once, not counted: the gateway's HTTP path and connectors are compiled by the JIT before the first
// measured message (a cold gateway cost up to twice the CPU per message of a warm one).
const BROKERS = (['redis', 'nats'] as const).filter((broker) => values.only === undefined || values.only === broker);
if (BROKERS.length === 0) throw new Error(`--only: redis or nats, not ${values.only}`);
for (const broker of BROKERS.map((name) => paths[name])) {
  await rate(broker.direct, WARMUP);
  await viaGateway(broker.gateway, 1);
}
/** Each path ROUNDS times, interleaved (direct, gateway, direct, ...); the median rate and CPU of each. */
async function measure(broker: BenchPaths): Promise<{ direct: number; gateway: number; gatewayCpuUs: number }> {
  const direct: number[] = [];
  const gateway: { rate: number; gatewayCpuUs: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    direct.push(await rate(broker.direct));
    gateway.push(await viaGateway(broker.gateway, (performance.now() - started) / 1000));
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { direct: median(direct), gateway: median(gateway.map((g) => g.rate)), gatewayCpuUs: median(gateway.map((g) => g.gatewayCpuUs)) };
}
/** Runs `steps` one after the other (the brokers are measured in turn, never at once). */
async function sequential<T>(steps: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const step of steps) out.push(await step());
  return out;
}
const results: { [broker in 'redis' | 'nats']?: Awaited<ReturnType<typeof measure>> } & Record<string, unknown> = {
  messages: MESSAGES,
  workers: Number(values.workers),
  inflight: INFLIGHT,
  bytes: payload.length,
  rounds: ROUNDS,
  ...Object.fromEntries(await sequential(BROKERS.map((name) => async () => [name, await measure(paths[name])] as const))),
};
redis.disconnect();
await nats.close();
if (values.json) process.stdout.write(`${JSON.stringify(results)}\n`);
else {
  process.stdout.write(
    `streams: ${MESSAGES} messages of ${payload.length} B, ${INFLIGHT} in flight (messages/s, each confirmed by the broker; median of ${ROUNDS} interleaved rounds after a warm-up)\n`,
  );
  for (const broker of BROKERS) {
    const { direct, gateway, gatewayCpuUs } = results[broker]!;
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
