// bench/streams-sinks: what the gateway's broker outputs (streams/redis-streams.ts RedisStreamsSink,
// streams/nats.ts NatsSink) cost per message, without HTTP: this process publishes through the sink itself,
// INFLIGHT publishers at once, each waiting for its own confirmation before its next message (as bench/streams'
// wrk connections do), and through the broker's own client the same way (ioredis XADD; nats publish + flush), in
// interleaved rounds. The figure is this process's CPU per message (utime + stime, process.cpuUsage): on a machine
// shared with other work the rate moves with the load, the CPU per message much less. At a few messages per
// event-loop turn it is what the sink's batching saves or costs (bench/streams measures the whole publish path).
//
//   node scripts/node24.mjs node bench/streams-sinks.ts [--messages 100000] [--inflight 8] [--bytes 256] [--rounds 3] [--json]
//
// Needs redis-server and nats-server (Debian: redis-server, nats-server).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import type { BrokerSink } from '../src/gateway/streams/broker.ts';
import { NatsSink } from '../src/gateway/streams/nats.ts';
import { RedisStreamsSink } from '../src/gateway/streams/redis-streams.ts';
import { freePort } from '../src/up/ports.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '100000' },
    inflight: { type: 'string', default: '8' },
    bytes: { type: 'string', default: '256' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean' },
  },
});
const MESSAGES = Number(values.messages);
const INFLIGHT = Number(values.inflight);
const ROUNDS = Number(values.rounds);
const payload = Buffer.alloc(Number(values.bytes), 'x');

const work = mkdtempSync(join(tmpdir(), 'gw-bench-streams-sinks-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

const [redisPort, natsPort] = [await freePort(), await freePort()];
children.push(
  spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work], { stdio: 'ignore' }),
  spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)], { stdio: 'ignore' }),
);
const redisUrl = `redis://127.0.0.1:${redisPort}`;
const natsUrl = `nats://127.0.0.1:${natsPort}`;

/** `send` MESSAGES times, INFLIGHT at once: messages per second and this process's CPU per message (µs). */
async function measure(send: () => Promise<void>, messages = MESSAGES): Promise<{ rate: number; cpuUs: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next++ < messages) await send();
    }),
  );
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { rate: Math.round(messages / (elapsedMs / 1000)), cpuUs: Number(((used.user + used.system) / messages).toFixed(1)) };
}

async function ready(what: string, probe: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (
      await probe().then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(50);
  }
  throw new Error(`${what} did not come up`);
}

const quiet = { warn: () => undefined, info: () => undefined };
const redis = new Redis(redisUrl, { lazyConnect: true, retryStrategy: () => 50 });
redis.on('error', () => undefined); // refused until redis-server listens: `ready` retries
await ready('redis-server', () => redis.ping());
const nats = await connect({ servers: natsUrl, waitOnFirstConnect: true });
const redisSink = new RedisStreamsSink({ url: redisUrl, stream: 'bench-sink', max_length: 0 }, quiet);
const natsSink = new NatsSink({ urls: [natsUrl], subject: 'bench.sink' }, quiet);

type Path = { direct: () => Promise<void>; sink: BrokerSink };
const paths: Record<'redis' | 'nats', Path> = {
  redis: { direct: async () => void (await redis.xadd('bench-direct', '*', 'body', payload)), sink: redisSink },
  nats: {
    direct: async () => {
      nats.publish('bench.direct', payload);
      await nats.flush();
    },
    sink: natsSink,
  },
};

const median = (numbers: number[]): number => numbers.sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const results: Record<string, unknown> = { messages: MESSAGES, inflight: INFLIGHT, bytes: payload.length, rounds: ROUNDS };
for (const [name, path] of Object.entries(paths)) {
  const viaSink = () => path.sink.publish(payload);
  // Warm-up, not counted: both paths compiled by the JIT before the first measured message.
  await measure(path.direct, MESSAGES / 4);
  await measure(viaSink, MESSAGES / 4);
  const direct: { rate: number; cpuUs: number }[] = [];
  const sink: { rate: number; cpuUs: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    direct.push(await measure(path.direct));
    sink.push(await measure(viaSink));
  }
  results[name] = {
    direct: { rate: median(direct.map((r) => r.rate)), cpuUs: median(direct.map((r) => r.cpuUs)) },
    sink: { rate: median(sink.map((r) => r.rate)), cpuUs: median(sink.map((r) => r.cpuUs)) },
  };
}
await Promise.all([redisSink.close(), natsSink.close(), nats.close()]);
redis.disconnect();

if (values.json) process.stdout.write(`${JSON.stringify(results)}\n`);
else {
  process.stdout.write(
    `streams sinks: ${MESSAGES} messages of ${payload.length} B, ${INFLIGHT} in flight (median of ${ROUNDS} interleaved rounds after a warm-up)\n`,
  );
  for (const name of Object.keys(paths)) {
    const { direct, sink } = results[name] as Record<'direct' | 'sink', { rate: number; cpuUs: number }>;
    process.stdout.write(
      `  ${name.padEnd(6)} client ${String(direct.rate).padStart(7)}/s ${direct.cpuUs.toFixed(1).padStart(5)} µs/message   gateway's sink ${String(sink.rate).padStart(7)}/s ${sink.cpuUs.toFixed(1).padStart(5)} µs/message\n`,
    );
  }
}
process.exit(0);
