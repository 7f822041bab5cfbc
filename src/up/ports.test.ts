// freePort: the kernel's pick without GW_PORT_RANGE; within GW_PORT_RANGE, ports that bind, never the same twice in
// a row, a taken one skipped, and a clear error for a malformed or exhausted range.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort, freePorts, portRangeFromEnv } from './ports.ts';

const listening: Server[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(listening.splice(0).map((server) => new Promise((resolveClose) => server.close(resolveClose))));
});

function hold(port: number): Promise<void> {
  const server = createServer();
  listening.push(server);
  return new Promise((resolveListen) => server.listen(port, '127.0.0.1', () => resolveListen()));
}

describe('freePort', () => {
  it('hands out ports of GW_PORT_RANGE only, each one free, never the same twice in a row', async () => {
    vi.stubEnv('GW_PORT_RANGE', '31100-31109');
    const ports = await freePorts(10);
    expect(new Set(ports).size).toBe(10);
    for (const port of ports) expect(port >= 31_100 && port <= 31_109).toBe(true);
    await hold(ports[0]!);
  });

  it('skips a port of the range that something already listens on', async () => {
    vi.stubEnv('GW_PORT_RANGE', '31120-31121');
    const first = await freePort();
    await hold(first);
    const second = await freePort();
    expect(second).not.toBe(first);
    await hold(second);
    await expect(freePort()).rejects.toThrow('no free port in GW_PORT_RANGE 31120-31121');
  });

  it('asks the kernel without GW_PORT_RANGE', async () => {
    vi.stubEnv('GW_PORT_RANGE', '');
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    await hold(port);
  });

  it('refuses a malformed range', () => {
    expect(portRangeFromEnv('12000-13499')).toEqual({ first: 12_000, last: 13_499 });
    expect(portRangeFromEnv('')).toBeUndefined();
    for (const bad of ['12000', '13499-12000', '0-10', '1-70000', 'a-b']) expect(() => portRangeFromEnv(bad)).toThrow('GW_PORT_RANGE must be');
  });
});
