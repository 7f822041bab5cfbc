// Real message brokers from Debian for the streams tests, each on free loopback ports in its own temporary
// directory, stopped after the test file: nats-server (starts in milliseconds) and rabbitmq-server (slow to start:
// start it once per file). Both can be restarted on the same port (a broker restart mid-stream). Redis is
// test/support/redis.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { afterAll } from 'vitest';
import { freePort } from '../../src/up/ports.ts';
import { waitUntil } from './wait.ts';

export interface RunningBroker {
  port: number;
  url: string;
  /** Stops the broker and starts it again on the same port (its state kept where it keeps state on disk). */
  restart(): Promise<void>;
  /** Stops the broker, keeping its port and directory for `up`. */
  down(): Promise<void>;
  /** Starts a broker stopped by `down` again, on the same port. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

const running = new Set<RunningBroker>();
afterAll(async () => {
  await Promise.all([...running].map((b) => b.stop()));
});

interface Launch {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Ready when this port accepts and answers its greeting. */
  ready: () => Promise<boolean>;
  startTimeoutMs: number;
}

async function supervise(name: string, launch: Launch, dir: string, port: number, url: string): Promise<RunningBroker> {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async (): Promise<void> => {
    // Its own process group: the broker's helpers (rabbitmq's beam.smp under its shell script) stop with it.
    const spawned = spawn(launch.command, launch.args, { stdio: 'ignore', detached: true, env: { ...process.env, ...launch.env } });
    child = spawned;
    exited = new Promise((resolveExit) => spawned.once('exit', () => resolveExit()));
    await waitUntil(
      `${name} to start`,
      async () => {
        if (spawned.exitCode !== null) throw new Error(`${name} exited at start (is Debian's ${name} installed? .ci/apt-packages.txt)`);
        return launch.ready();
      },
      { timeoutMs: launch.startTimeoutMs },
    );
  };
  const stopProcess = async (): Promise<void> => {
    if (child && child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await exited;
    // The group's last members (beam.smp) may outlive the shell for a moment: wait until the port is free.
    await waitUntil(`${name} to release its port`, async () => !(await accepts(port)), { timeoutMs: 30_000 });
  };
  await start();
  const broker: RunningBroker = {
    port,
    url,
    restart: async () => {
      await stopProcess();
      await start();
    },
    down: stopProcess,
    up: start,
    stop: async () => {
      running.delete(broker);
      await stopProcess();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(broker);
  return broker;
}

export async function startNats(): Promise<RunningBroker> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-nats-'));
  return supervise(
    'nats-server',
    {
      command: 'nats-server',
      args: ['-a', '127.0.0.1', '-p', String(port), '--pid', join(dir, 'nats.pid')],
      ready: () => greets(port, 'INFO'),
      startTimeoutMs: 30_000,
    },
    dir,
    port,
    `nats://127.0.0.1:${port}`,
  );
}

export async function startRabbitMq(): Promise<RunningBroker> {
  const port = await freePort();
  const distPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-rabbitmq-'));
  mkdirSync(join(dir, 'mnesia'));
  mkdirSync(join(dir, 'log'));
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  // Not the Debian wrapper (/usr/sbin/rabbitmq-server switches to the rabbitmq user): the server script itself,
  // as the test's user, with every path under the temporary directory.
  return supervise(
    'rabbitmq-server',
    {
      command: '/usr/lib/rabbitmq/bin/rabbitmq-server',
      args: [],
      env: {
        HOME: dir,
        RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
        RABBITMQ_LOG_BASE: join(dir, 'log'),
        RABBITMQ_NODENAME: `gwtest${port}@localhost`,
        RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
        RABBITMQ_NODE_PORT: String(port),
        RABBITMQ_DIST_PORT: String(distPort),
        RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
        RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
      },
      ready: () => greets(port, 'AMQP', Buffer.from('AMQP\x00\x00\x09\x01', 'latin1')),
      startTimeoutMs: 90_000,
    },
    dir,
    port,
    `amqp://guest:guest@127.0.0.1:${port}`,
  );
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccept) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolveAccept(true);
    });
    socket.once('error', () => resolveAccept(false));
  });
}

/** The port accepts and its first bytes (after `hello`, if given) start with `prefix`. */
function greets(port: number, prefix: string, hello?: Buffer): Promise<boolean> {
  return new Promise((resolveGreeting) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolveGreeting(false);
    });
    socket.once('connect', () => {
      if (hello) socket.write(hello);
    });
    socket.once('data', (data) => {
      socket.destroy();
      // RabbitMQ answers a protocol header with connection.start (a method frame, type 1), not AMQP.
      resolveGreeting(hello ? data[0] === 1 : data.toString('latin1').startsWith(prefix));
    });
    socket.once('error', () => resolveGreeting(false));
  });
}
