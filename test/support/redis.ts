// A real Redis server (Debian's redis-server) on a free loopback port, without persistence, in a temporary
// directory; stopped after the test file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll } from 'vitest';
import { GatewayConfigSchema, type GatewayConfig } from '../../src/gateway/config.ts';
import { freePort } from '../../src/up/ports.ts';

/** The gateway's storage options for Redis, defaults filled in as the gateway's configuration would. */
export function redisStorage(options: Record<string, unknown>): GatewayConfig['storage'] {
  return GatewayConfigSchema.parse({ secret: 'unused', storage: { type: 'redis', ...options } }).storage;
}

export interface RunningRedis {
  port: number;
  /** Stops the server and starts it again on the same port (empty: no persistence). */
  restartOnSamePort(): Promise<void>;
  /** Stops the server (SIGTERM) and waits for it to exit; `resume` starts it again on the same port, empty. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const running = new Set<RunningRedis>();
afterAll(async () => {
  await Promise.all([...running].map((r) => r.stop()));
});

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-redis-'));
  const launch = async (): Promise<{ child: ChildProcess; exited: Promise<void> }> => {
    const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (child.exitCode !== null) throw new Error("redis-server exited at start (is Debian's redis-server installed? .ci/apt-packages.txt)");
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await sleep(50);
    }
    return { child, exited };
  };
  let current = await launch();
  const halt = async (): Promise<void> => {
    if (current.child.exitCode === null) current.child.kill('SIGTERM');
    await current.exited;
  };
  const redis: RunningRedis = {
    port,
    restartOnSamePort: async () => {
      await halt();
      current = await launch();
    },
    halt,
    resume: async () => {
      current = await launch();
    },
    stop: async () => {
      running.delete(redis);
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(redis);
  return redis;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.write('PING\r\n');
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolveAnswer(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolveAnswer(false));
  });
}
