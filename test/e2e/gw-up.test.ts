// The README's first command, run as a newcomer runs it: `./bin/gw up` comes up with the CRDs installed, answers
// kubectl through the kubeconfig it prints, and leaves nothing running after Ctrl-C (SIGINT).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

describe('gw up', () => {
  const stateDir = join(mkdtempSync(join(tmpdir(), 'gw-up-test-')), 'state');
  afterAll(() => rmSync(join(stateDir, '..'), { recursive: true, force: true }));

  it('brings up a control plane with the gw CRDs and stops everything on Ctrl-C', async () => {
    const child = spawn(join(REPO_ROOT, 'bin', 'gw'), ['up', '--state-dir', stateDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
    await new Promise<void>((resolveUp, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Press Ctrl-C')) resolveUp();
      });
      void exited.then((code) => reject(new Error(`gw up exited (${code}) before it was up:\n${stderr}`)));
    });

    expect(stderr).toMatch(/\[1\/3\][\s\S]*\[2\/3\][\s\S]*\[3\/3\]/); // progress while it boots
    const kubeconfig = /export KUBECONFIG=(\S+)/.exec(stdout)?.[1];
    const binDir = /export PATH=(\S+):\$PATH/.exec(stdout)?.[1];
    expect(kubeconfig).toBe(join(stateDir, 'kubeconfig'));
    expect(stdout).toContain('gwoasapidefinitions');
    const get = spawn(join(binDir!, 'kubectl'), ['get', 'crd', 'apidefinitions.gw.gw.io', '-o', 'name'], { env: { ...process.env, KUBECONFIG: kubeconfig } });
    let crd = '';
    get.stdout.on('data', (chunk: Buffer) => (crd += chunk.toString()));
    await new Promise((resolveGet) => get.on('exit', resolveGet));
    expect(crd.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/apidefinitions.gw.gw.io');

    const pids = Object.values((JSON.parse(readFileSync(join(stateDir, 'state.json'), 'utf8')) as { pids: Record<string, number> }).pids);
    expect(pids).toHaveLength(3);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(existsSync(stateDir)).toBe(false);
    expect(stderr).toContain('nothing is left running');
  });
});
