// `gw up --with-node` run as a newcomer runs it: a child process that starts the control plane and a real node,
// installs the chart so the operator and a gateway run as pods of the image built here, and prints "gw is up" with
// a curl line through the node address. The test calls that line and gets the sample API's answer (the echo beside
// the gateway pod), sends SIGTERM, and checks that the host is exactly as before (processes, links, rules,
// sysctls, mounts, cgroups) and nothing of gw up is left; the same for a SIGTERM while it starts. Also: the flags
// it refuses, with a clear message.
//
// The node part skips, printing why, on a machine without what a node needs (src/up/node/host-features.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { processesOf } from '../../src/up/node/host-state.ts';
import { liveNode } from '../../src/up/node/node-lock.ts';
import { undoStaleNode } from '../../src/up/node/node.ts';
import { hostSnapshot, nodeSkipReason, type HostSnapshot } from '../support/node-cluster.ts';
import { takeNodeTurn } from '../support/node-turn.ts';

const skipReason = nodeSkipReason();
if (skipReason) process.stderr.write(`gw up --with-node test skipped: ${skipReason}\n`);

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function gwUp(args: string[]): Run {
  const child = spawn(join(REPO_ROOT, 'bin', 'gw'), ['up', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Resolves when stdout says it is up; rejects when gw up exits first. */
function whenUp(run: Run): Promise<void> {
  return new Promise((resolveUp, reject) => {
    const check = (): void => {
      if (run.stdout().includes('Press Ctrl-C')) resolveUp();
    };
    run.child.stdout!.on('data', check);
    void run.exited.then((code) => reject(new Error(`gw up --with-node exited (${code}) before it was up:\n${run.stderr()}`)));
  });
}

describe('gw up --with-node', () => {
  it('refuses --licensed and --kubeconfig with a clear message, starting nothing', async () => {
    for (const flag of [['--licensed'], ['--kubeconfig', '/nonexistent']]) {
      const run = gwUp(['--with-node', ...flag]);
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toContain(`gw up --with-node does not take ${flag[0]}`);
    }
  });

  describe.skipIf(skipReason !== null)('on a real node', () => {
    const stateDir = join(mkdtempSync(join(tmpdir(), 'gw-up-node-')), 'state');
    let releaseTurn: (() => void) | undefined;
    let before: HostSnapshot;
    let run: Run | undefined;

    beforeAll(async () => {
      releaseTurn = await takeNodeTurn((line) => process.stderr.write(`${line}\n`));
      const undone = await undoStaleNode();
      if (undone) process.stderr.write(`undid the stale node of a killed run (${undone})\n`);
      before = hostSnapshot();
    });

    afterAll(async () => {
      if (run && run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGTERM');
        await run.exited;
      }
      releaseTurn?.();
      rmSync(join(stateDir, '..'), { recursive: true, force: true });
    });

    it('serves the sample through the node address, and SIGTERM leaves the host as it was', async () => {
      const started = Date.now();
      run = gwUp(['--with-node', '--state-dir', stateDir]);
      await whenUp(run);
      const readySeconds = Math.round((Date.now() - started) / 100) / 10;
      const stdout = run.stdout();
      const laps = run
        .stderr()
        .split('\n')
        .filter((line) => /^\[\d\/6\]|\(\d+(\.\d+)? s\)$/.test(line))
        .join('\n');
      process.stderr.write(`gw up --with-node: ready in ${readySeconds} s; ${/ready in .*\)/.exec(stdout)?.[0] ?? ''}\n${laps}\n`);

      // Progress for each long step while it booted.
      expect(run.stderr()).toMatch(
        /\[1\/6\][\s\S]*\[2\/6\] building the product image[\s\S]*\[3\/6\][\s\S]*\[4\/6\] starting the node[\s\S]*\[5\/6\][\s\S]*pods Ready[\s\S]*\[6\/6\]/,
      );
      expect(stdout).toContain('The sample API through the node address: HTTP 200');
      // The curl line it prints answers from the echo beside the gateway pod, through kube-proxy's NodePort.
      const url = /curl (http:\/\/10\.99\.0\.1:\d+\/httpbin\/get)/.exec(stdout)?.[1];
      expect(url, stdout).toBeDefined();
      const answer = await fetch(url!);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ url: '/get', server: 'sample-upstream' });
      expect(stdout).toMatch(/gw-operator-system +gw-operator-controller-manager-\S+ +1\/1 +Running/);
      expect(stdout).toMatch(/gw-up +gateway-\S+ +2\/2 +Running/);
      expect(stdout).toMatch(/apidefinition\.gw\.gw\.io\/httpbin .*Successful/);
      expect(liveNode()).toBe(join(stateDir, 'node'));

      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(run.stderr()).toContain("stopped; the node's host changes are undone");
      expect(liveNode()).toBeNull();
      expect(processesOf([], stateDir)).toEqual([]);
      expect(existsSync(stateDir)).toBe(false);
      expect(hostSnapshot()).toEqual(before);
    }, 900_000);

    it('SIGTERM while it starts (the node up, the pods not yet Ready) stops what it started and leaves the host as it was', async () => {
      run = gwUp(['--with-node', '--state-dir', stateDir]);
      const current = run;
      await new Promise<void>((resolveStep, reject) => {
        current.child.stderr!.on('data', () => {
          if (current.stderr().includes('[5/6]')) resolveStep();
        });
        void current.exited.then((code) => reject(new Error(`gw up --with-node exited (${code}) before step 5:\n${current.stderr()}`)));
      });
      expect(liveNode()).toBe(join(stateDir, 'node'));
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(130);
      expect(run.stdout()).not.toContain('Press Ctrl-C');
      expect(liveNode()).toBeNull();
      expect(processesOf([], stateDir)).toEqual([]);
      expect(existsSync(stateDir)).toBe(false);
      expect(hostSnapshot()).toEqual(before);
    }, 600_000);
  });
});
