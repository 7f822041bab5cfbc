// bench/streams-fanout: what a stream costs the gateway per message it delivers to subscribers. A Redis Streams
// input (Debian's redis-server; this process XADDs the messages, pipelined) with an http_server output, SUBSCRIBERS
// Server-Sent Events clients reading it; the gateway's CPU (its process's utime + stime, bench/process-cpu.ts) from
// the first XADD until every subscriber has every message, per message delivered (messages x subscribers), and the
// messages delivered per second. With --workers N the gateway runs N worker threads (0: one per core), so every
// message also goes through the primary to each worker's subscribers.
//
//   node scripts/node24.mjs node bench/streams-fanout.ts [--messages 20000] [--subscribers 8] [--bytes 256] [--workers 1] [--rounds 3] [--json]
//                                                       [--cpu-prof DIR]
//
// --cpu-prof DIR runs the gateway under `node --cpu-prof`; its .cpuprofile is written to DIR when it exits.
//
// The CPU per delivered message is the figure on a shared machine (the rate moves with the machine's load).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { freePort } from '../src/up/ports.ts';
import { treeCpuUs } from './process-cpu.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    subscribers: { type: 'string', default: '8' },
    bytes: { type: 'string', default: '256' },
    workers: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean' },
    'cpu-prof': { type: 'string' },
  },
});
const MESSAGES = Number(values.messages);
const SUBSCRIBERS = Number(values.subscribers);
const ROUNDS = Number(values.rounds);
const payload = Buffer.alloc(Number(values.bytes), 'x');
const SECRET = 'bench-streams-fanout-secret';

const work = mkdtempSync(join(tmpdir(), 'gw-bench-fanout-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

function start(command: string, args: string[], logs: boolean): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', logs ? 'inherit' : 'ignore'] });
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

const [redisPort, gwPort] = [await freePort(), await freePort()];
start('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work], false);
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
const profile = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
const gateway = start(process.execPath, [...profile, join(import.meta.dirname, '..', 'bin', 'gw'), 'gateway', '--config', configFile], true);
const gw = `http://127.0.0.1:${gwPort}`;
await until('the gateway', async () => (await (await fetch(`${gw}/ready`)).text()) !== '');

const redisUrl = `redis://127.0.0.1:${redisPort}`;
const api = {
  openapi: '3.0.3',
  info: { title: 'fanout', version: '1' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id: 'fanout', name: 'fanout', state: { active: true } },
    upstream: { url: 'http://127.0.0.1:9' },
    server: { listenPath: { value: '/fanout', strip: true } },
  },
  'x-gw-streaming': {
    streams: {
      fan: {
        input: { redis_streams: { url: redisUrl, streams: ['fan'] } },
        output: { http_server: { stream_path: '/stream', max_buffer_bytes: 256 * 1024 * 1024 } },
      },
    },
  },
};
const admin = { 'x-gw-authorization': SECRET, 'content-type': 'application/json' };
const created = await request(`${gw}/gw/apis/oas`, { method: 'POST', headers: admin, body: JSON.stringify(api) });
if (created.statusCode !== 200) throw new Error(`creating the API: ${created.statusCode} ${await created.body.text()}`);
await (await request(`${gw}/gw/reload?block=true`, { headers: admin })).body.dump();

/** An SSE subscriber counting the events it has read (each ends with a blank line). */
class Subscriber {
  events = 0;
  #subscribed!: () => void;
  readonly subscribed = new Promise<void>((resolve) => (this.#subscribed = resolve));
  #waiters: { count: number; resolve: () => void }[] = [];

  constructor(response: Awaited<ReturnType<typeof request>>) {
    let carry = '';
    response.body.on('data', (chunk: Buffer) => {
      const text = carry + chunk.toString('latin1');
      let at = 0;
      for (let end = text.indexOf('\n\n', at); end >= 0; end = text.indexOf('\n\n', at)) {
        if (text.startsWith(': subscribed', at)) this.#subscribed();
        else if (text.startsWith('data: ', at)) this.events++;
        at = end + 2;
      }
      carry = text.slice(at);
      this.#waiters = this.#waiters.filter((waiter) => (this.events >= waiter.count ? (waiter.resolve(), false) : true));
    });
  }

  reached(count: number): Promise<void> {
    if (this.events >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
}

await until('the stream', async () => {
  const probe = await request(`${gw}/fanout/stream`);
  probe.body.destroy();
  return probe.statusCode === 200;
});
const subscribers = await Promise.all(Array.from({ length: SUBSCRIBERS }, async () => new Subscriber(await request(`${gw}/fanout/stream`))));
await Promise.all(subscribers.map((s) => s.subscribed));
// The input reads from the newest entry once connected: one message every subscriber sees says it is reading.
const redis = new Redis(redisUrl);
await until('the input', async () => {
  await redis.xadd('fan', '*', 'body', 'probe');
  await sleep(100);
  return subscribers.every((s) => s.events > 0);
});
await until('the probes to settle', async () => {
  const seen = subscribers.map((s) => s.events);
  await sleep(200);
  return subscribers.every((s, i) => s.events === seen[i]);
});

/** XADDs `count` messages in pipelines of 500; resolves once every subscriber has them all. */
async function round(count: number): Promise<{ rate: number; gatewayCpuUs: number }> {
  const targets = subscribers.map((s) => s.events + count);
  const before = treeCpuUs(gateway.pid!);
  const started = performance.now();
  for (let sent = 0; sent < count; sent += 500) {
    const pipeline = redis.pipeline();
    for (let i = sent; i < Math.min(count, sent + 500); i++) pipeline.xadd('fan', '*', 'body', payload);
    await pipeline.exec();
  }
  await Promise.all(subscribers.map((s, i) => s.reached(targets[i]!)));
  const seconds = (performance.now() - started) / 1000;
  const delivered = count * SUBSCRIBERS;
  return { rate: Math.round(delivered / seconds), gatewayCpuUs: Number(((treeCpuUs(gateway.pid!) - before) / delivered).toFixed(2)) };
}

await round(Math.ceil(MESSAGES / 4)); // warm-up: the JIT compiles the delivery path first
const rounds: { rate: number; gatewayCpuUs: number }[] = [];
for (let i = 0; i < ROUNDS; i++) rounds.push(await round(MESSAGES));
const median = (numbers: number[]): number => numbers.sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const result = {
  messages: MESSAGES,
  subscribers: SUBSCRIBERS,
  bytes: payload.length,
  workers: Number(values.workers),
  rate: median(rounds.map((r) => r.rate)),
  gatewayCpuUs: median(rounds.map((r) => r.gatewayCpuUs)),
};
redis.disconnect();
if (values['cpu-prof']) {
  // The profile is written when the gateway exits: SIGTERM is its graceful shutdown.
  const exited = new Promise((resolve) => gateway.once('exit', resolve));
  gateway.kill('SIGTERM');
  await exited;
}
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
else
  process.stdout.write(
    `streams fan-out: ${MESSAGES} messages of ${payload.length} B to ${SUBSCRIBERS} SSE subscribers, ${result.workers} worker(s): ` +
      `${result.rate} messages delivered/s, gateway CPU ${result.gatewayCpuUs} µs per delivered message (median of ${ROUNDS})\n`,
  );
process.exit(0);
