// Process and store ownership (issue 10, item 10): a gateway started through the Node bootstrap dies with the pid
// that was reported for it, even of a SIGKILL, and one embedded store directory belongs to one gateway at a time
// (a second is refused with a message naming the owner; a crashed owner's lock is taken over). Real bin/gw
// processes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { runGw } from '../../support/cli.ts';
import { SECRET, startGateway } from '../../support/gateway.ts';
import { waitUntil } from '../../support/wait.ts';
import { freePort } from '../../../src/up/ports.ts';
import { REPO_ROOT } from '../../../src/up/paths.ts';

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function answers(url: string): Promise<boolean> {
  try {
    const response = await request(url, { headersTimeout: 2000, bodyTimeout: 2000 });
    await response.body.dump();
    return response.statusCode === 200;
  } catch {
    return false;
  }
}

/** PATH without the directory of the Node running the tests: `node` is then the machine's own, if it has one. */
function pathWithMachineNode(): { path: string; version: string | undefined } {
  const ours = dirname(process.execPath);
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== ours)
    .join(delimiter);
  const probe = spawnSync('node', ['-p', 'process.versions.node'], { env: { ...process.env, PATH: path }, encoding: 'utf8' });
  return { path, version: probe.status === 0 ? probe.stdout.trim() : undefined };
}

const machine = pathWithMachineNode();
const [major = 0, minor = 0] = (machine.version ?? '0.0').split('.').map(Number);
/** The bootstrap is in play only when the machine's node cannot run our TypeScript itself. */
const bootstrapInPlay = machine.version !== undefined && (major < 22 || (major === 22 && minor < 18));

describe('process ownership', () => {
  it.skipIf(!bootstrapInPlay)(`a SIGKILL of the pid bin/gw reports (bootstrap on node ${machine.version}) stops the gateway`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-ownership-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    const configFile = join(dir, 'gateway.json');
    writeFileSync(configFile, JSON.stringify({ listen_address: '127.0.0.1', listen_port: port, secret: SECRET, storage: { path: join(dir, 'data') } }));

    const launched: ChildProcess = spawn(join(REPO_ROOT, 'bin', 'gw'), ['gateway', '--config', configFile], {
      env: { ...process.env, PATH: machine.path },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [launched.stdout!, launched.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // The serving process logs its own pid: kill it at the end, whatever happens (before the fix it outlived the bootstrap).
    cleanups.push(() => {
      for (const match of output.matchAll(/"pid":(\d+)/g)) {
        try {
          process.kill(Number(match[1]), 'SIGKILL');
        } catch {
          // gone
        }
      }
      launched.kill('SIGKILL');
    });
    const health = `http://127.0.0.1:${port}/hello`;
    await waitUntil('the gateway answers', () => answers(health), { timeoutMs: 60_000 });
    const servingPid = Number(/"pid":(\d+)/.exec(output)?.[1]);
    expect(servingPid, 'the bootstrap runs the gateway as its child').not.toBe(launched.pid);

    launched.kill('SIGKILL');
    await waitUntil('the port stops answering', async () => !(await answers(health)));
    await waitUntil('the gateway process is gone', () => !isAlive(servingPid));
    expect(output, 'it shut down as on SIGTERM (drained, store closed)').toContain('shutting down');
    expect(existsSync(join(dir, 'data', 'owner.lock')), 'the store lock was released').toBe(false);
  });
});

describe('store ownership', () => {
  it('refuses a second gateway on the same storage.path, naming the owner; a crashed owner does not block a restart', async () => {
    const first = await startGateway();
    const storePath = join(first.dir, 'data');
    const dir = mkdtempSync(join(tmpdir(), 'gw-ownership-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const secondConfig = join(dir, 'gateway.json');
    writeFileSync(secondConfig, JSON.stringify({ listen_address: '127.0.0.1', listen_port: await freePort(), secret: SECRET, storage: { path: storePath } }));

    // Bounded: before the lock, the second gateway simply ran (and never exited).
    const second = await Promise.race([
      runGw(['gateway', '--config', secondConfig]),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("the second gateway did not exit: it is running on the first one's store")), 30_000).unref(),
      ),
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `gw gateway: the gateway store \\(storage\\.path\\) ${storePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by process \\d+ \\(another gw gateway\\?`,
      ),
    );
    expect((await first.call('/hello')).status, 'the owner keeps serving').toBe(200);

    await first.stop('SIGKILL');
    expect(existsSync(join(storePath, 'owner.lock')), 'a SIGKILL leaves the lock file behind').toBe(true);
    await first.restart(); // takes over the dead owner's lock
    expect((await first.call('/hello')).status).toBe(200);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
