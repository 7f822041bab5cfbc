// bench/streams: messages per second published through the gateway's HTTP publish endpoint of a streams API
// (x-gw-streaming, each POST answered once the broker confirmed the message) versus published directly to the same
// broker by a client with the same number of messages in flight, in the same run. Brokers: Debian's redis-server
// (XADD) and nats-server (publish + flush).
//
//   node scripts/node24.mjs node bench/streams.ts [--messages 20000] [--inflight 32] [--bytes 256] [--json]
//
// The gateway runs as `bin/gw gateway` (its own process); this process is the load generator for both paths.
// On 2 shared cores the absolute numbers move with the machine's load; the ratio is the figure.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import { Pool, request } from 'undici';
import { freePort } from '../src/up/ports.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    inflight: { type: 'string', default: '32' },
    bytes: { type: 'string', default: '256' },
    json: { type: 'boolean' },
  },
});
const MESSAGES = Number(values.messages);
const INFLIGHT = Number(values.inflight);
const payload = Buffer.alloc(Number(values.bytes), 'x');
const SECRET = 'bench-streams-secret';

const work = mkdtempSync(join(tmpdir(), 'gw-bench-streams-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

function start(command: string, args: string[]): void {
  // Brokers' own logs are not the bench's output; the gateway's warnings are.
  children.push(spawn(command, args, { stdio: ['ignore', 'ignore', command.endsWith('gw') ? 'inherit' : 'ignore'] }));
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
start(join(import.meta.dirname, '..', 'bin', 'gw'), ['gateway', '--config', configFile]);
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
    gateway: await rate(viaGateway('/bench/redis')),
  },
  nats: {
    direct: await rate(async () => {
      nats.publish('bench.direct', payload);
      await nats.flush();
    }),
    gateway: await rate(viaGateway('/bench/nats')),
  },
};
redis.disconnect();
await nats.close();
await pool.close();
if (values.json) process.stdout.write(`${JSON.stringify(results)}\n`);
else {
  process.stdout.write(`streams: ${MESSAGES} messages of ${payload.length} B, ${INFLIGHT} in flight (messages/s, each confirmed by the broker)\n`);
  for (const broker of ['redis', 'nats'] as const) {
    const { direct, gateway } = results[broker];
    process.stdout.write(
      `  ${broker.padEnd(6)} direct ${String(direct).padStart(7)}   through the gateway ${String(gateway).padStart(7)}   (${Math.round((gateway / direct) * 100)}%)\n`,
    );
  }
}
process.exit(0);
