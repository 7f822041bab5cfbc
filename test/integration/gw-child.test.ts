// The processes gw starts (`gw up`'s gateway and operator, every gw process of the test harness) end as their
// parent means them to: a Ctrl-C at the terminal (SIGINT to the whole foreground process group) reaches only the
// parent, which decides when to stop the child (gw up deletes its samples first, while the operator still runs) —
// before, the child took the terminal's SIGINT at once and stopped serving; and a parent killed with SIGKILL leaves
// no child running — before, the children ran on forever. A child that dies while starting fails the start with the
// last lines it wrote to its log — before, `gw up` printed `gw gateway exited with 1 (log: …)` and an empty line,
// then deleted that log with its state.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isRunning } from '../support/process-state.ts';
import { startGwChild } from '../../src/up/child.ts';
import { freePort } from '../../src/up/ports.ts';
import { http } from '../support/gateway.ts';
import { waitUntil } from '../support/wait.ts';

const parentScript = join(import.meta.dirname, 'testdata', 'gw-child', 'parent.ts');
const dirs: string[] = [];
const parents: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const parent of parents) {
    try {
      process.kill(-parent.pid!, 'SIGKILL'); // the group: the parent and, before the fix, its children
    } catch {
      // already gone
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A parent process (its own process group, like a shell's foreground job) running a gateway child. */
async function parentWithGateway(): Promise<{ parent: ChildProcessWithoutNullStreams; childPid: number; readyUrl: string; stdout: () => string }> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-child-test-'));
  dirs.push(dir);
  const port = await freePort();
  const configFile = join(dir, 'gateway.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      listen_address: '127.0.0.1',
      listen_port: port,
      secret: 'gw-child-test-secret',
      app_path: join(dir, 'apps'),
      storage: { path: join(dir, 'store') },
    }),
  );
  const readyUrl = `http://127.0.0.1:${port}/ready`;
  const parent = spawn(process.execPath, [parentScript, configFile, readyUrl], { cwd: dir, detached: true });
  parents.push(parent);
  let stdout = '';
  let stderr = '';
  parent.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  parent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitUntil('the parent starts its gateway', () => /child \d+/.test(stdout) || parent.exitCode !== null, { timeoutMs: 60_000 });
  if (parent.exitCode !== null) throw new Error(`the parent exited ${parent.exitCode}:\n${stderr}`);
  return { parent, childPid: Number(/child (\d+)/.exec(stdout)![1]), readyUrl, stdout: () => stdout };
}

describe('gw child processes', () => {
  it('a Ctrl-C at the terminal reaches the parent only: the child serves on until the parent stops it, then drains and exits 0', async () => {
    const { parent, readyUrl, stdout } = await parentWithGateway();
    process.kill(-parent.pid!, 'SIGINT'); // what a terminal does: the signal goes to the whole foreground group
    await waitUntil('the parent gets the Ctrl-C', () => stdout().includes('parent got SIGINT'));
    expect((await http(readyUrl)).status).toBe(200);
    process.kill(parent.pid!, 'SIGUSR2');
    await waitUntil('the parent reports its child stopped', () => stdout().includes('child exited'));
    expect(stdout()).toContain('child exited 0');
  });

  it('a parent killed with SIGKILL leaves no child running', async () => {
    const { parent, childPid } = await parentWithGateway();
    expect(isRunning(childPid)).toBe(true);
    process.kill(parent.pid!, 'SIGKILL');
    await waitUntil(`the gateway (pid ${childPid}) ends with its parent`, () => !isRunning(childPid));
  });

  it("a child that dies while starting fails the start with the last lines of its log (this run's only)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-child-test-'));
    dirs.push(dir);
    const holder = createServer((_request, response) => response.writeHead(503).end()); // another program on the port
    await new Promise<void>((resolveListen) => holder.listen(0, '127.0.0.1', resolveListen));
    const port = (holder.address() as { port: number }).port;
    const configFile = join(dir, 'gateway.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        listen_address: '127.0.0.1',
        listen_port: port,
        secret: 'gw-child-test-secret',
        app_path: join(dir, 'apps'),
        storage: { path: join(dir, 'store') },
      }),
    );
    const logFile = join(dir, 'gateway.log');
    writeFileSync(logFile, 'a line of an earlier run\n');
    try {
      const start = startGwChild({ args: ['gateway', '--config', configFile], output: { logFile }, readyUrl: `http://127.0.0.1:${port}/ready` });
      const failure = await start.then(
        () => new Error('the gateway started on a taken port'),
        (error: unknown) => error as Error,
      );
      expect(failure.message).toMatch(/^gw gateway exited with 1 \(log: .*gateway\.log\):\n/);
      expect(failure.message).toContain(`EADDRINUSE: address already in use 127.0.0.1:${port}`);
      expect(failure.message).not.toContain('a line of an earlier run');
    } finally {
      holder.closeAllConnections();
      await new Promise((resolveClose) => holder.close(resolveClose));
    }
  });
});
