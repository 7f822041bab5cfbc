// `gw up` checks its flags and ports before it starts anything: a port that is not a number (`--gateway-port abc`
// was silently a random port), a flag it does not know, and a port another program holds (it used to start the
// control plane, then fail with `gw gateway exited with 1` and an empty line) each end it at once, naming the flag
// or the port, with no step begun and no state directory made.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGw } from '../support/cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gw-up-flags-'));
const stateDir = join(scratch, 'state');
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolveClose) => server.close(resolveClose));
  rmSync(scratch, { recursive: true, force: true });
});

/** A port on 127.0.0.1 held by a listener of this process, as another program would hold 8080. */
async function takenPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  return (server.address() as { port: number }).port;
}

/** Nothing began: no progress step, no state directory. */
function expectNothingStarted(stderr: string): void {
  expect(stderr).not.toContain('[1/7]');
  expect(existsSync(stateDir)).toBe(false);
}

describe('gw up before it starts anything', () => {
  it('a port that is not a number from 0 to 65535 exits 2 naming the flag', async () => {
    for (const [flag, value] of [
      ['--gateway-port', 'abc'],
      ['--gateway-port', '70000'],
      ['--dashboard-port', '-1'],
      ['--gateway-port', '80.5'],
    ]) {
      const { code, stderr } = await runGw(['up', '--state-dir', stateDir, `${flag}=${value}`]);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`gw up: ${flag} takes a port number from 0 to 65535 (0 picks a free one), not "${value}"`);
      expectNothingStarted(stderr);
    }
  });

  it('a flag it does not know exits 2 with the usage', async () => {
    const { code, stderr } = await runGw(['up', '--state-dir', stateDir, '--gateway-prot', '8081']);
    expect(code).toBe(2);
    expect(stderr).toContain("gw up: Unknown option '--gateway-prot'");
    expect(stderr).toContain('usage: gw up');
    expectNothingStarted(stderr);
  });

  it('a taken gateway port exits 1 naming it and suggesting --gateway-port 0', async () => {
    const port = await takenPort();
    const { code, stderr } = await runGw(['up', '--state-dir', stateDir, '--gateway-port', String(port)]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `gw up: port ${port} on 127.0.0.1 is taken by another program; gw up's gateway listens there. Free it, choose another with --gateway-port PORT, or pass --gateway-port 0 for a free one`,
    );
    expect(stderr).toContain('nothing was started');
    expectNothingStarted(stderr);
  });

  it('with --licensed, a taken dashboard port too', async () => {
    const port = await takenPort();
    const { code, stderr } = await runGw(['up', '--licensed', '--state-dir', stateDir, '--gateway-port', '0', '--dashboard-port', String(port)]);
    expect(code).toBe(1);
    expect(stderr).toContain(`port ${port} on 127.0.0.1 is taken by another program; gw up's dashboard listens there`);
    expect(stderr).toContain('--dashboard-port 0 for a free one');
    expectNothingStarted(stderr);
  });
});
