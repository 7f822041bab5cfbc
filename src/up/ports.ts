// Free TCP ports on loopback for processes a test or `cluster:up` starts. The port is free when returned; a
// process that loses the race fails to bind, and callers that care retry the whole start.
//
// GW_PORT_RANGE ("first-last", e.g. 12000-13499) confines the ports to that range: each is tried by binding it, from
// a random place in the range onwards, so one process never hands out the same port twice in a row. The test suite
// gives each vitest worker a range of its own below the kernel's ephemeral ports (test/support/worker-ports.ts):
// a port handed to a process that takes seconds to start is then never handed to another worker's process
// meanwhile, nor taken as the local port of an outgoing connection. Without it the kernel picks (port 0).
import { createServer } from 'node:net';

export interface PortRange {
  first: number;
  last: number;
}

/** The range GW_PORT_RANGE names, or undefined when it is unset; throws on a malformed one. */
export function portRangeFromEnv(value = process.env.GW_PORT_RANGE): PortRange | undefined {
  if (value === undefined || value === '') return undefined;
  const match = /^(\d+)-(\d+)$/.exec(value.trim());
  const first = Number(match?.[1]);
  const last = Number(match?.[2]);
  if (!match || first < 1 || last > 65_535 || first > last) throw new Error(`GW_PORT_RANGE must be "first-last" within 1-65535, got "${value}"`);
  return { first, last };
}

function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolvePort(undefined) : reject(error)));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

let cursor: number | undefined;

async function portInRange({ first, last }: PortRange): Promise<number> {
  const size = last - first + 1;
  cursor ??= Math.floor(Math.random() * size);
  for (let tried = 0; tried < size; tried++) {
    const port = first + (cursor++ % size);
    if ((await listenOn(port)) !== undefined) return port;
  }
  throw new Error(`no free port in GW_PORT_RANGE ${first}-${last}`);
}

export async function freePort(): Promise<number> {
  const range = portRangeFromEnv();
  if (range) return portInRange(range);
  const port = await listenOn(0);
  if (port === undefined) throw new Error('no port');
  return port;
}

export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
