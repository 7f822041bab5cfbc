// The README's first command, run as a newcomer runs it: `./bin/gw up` brings up the control plane with the CRDs,
// a gateway, the operator and the samples, proxies one request with a sample key, prints the curl line that works
// and the kubeconfig kubectl answers through, and leaves nothing running after Ctrl-C (SIGINT). `gw up --licensed`
// adds the dashboard: the sample synced into it and served by a gateway loading from it, its web UI signed in to
// with the access key the summary prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isRunning } from '../support/process-state.ts';
import { REPO_ROOT } from '../../src/up/paths.ts';

/** Processes whose command line or environment mentions `text` (gw up's children all name its state dir). */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return isRunning(pid) && (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) || readFileSync(`/proc/${pid}/environ`, 'utf8').includes(text));
      } catch {
        return false;
      }
    });
}

/** Runs `gw up` with these arguments until its summary is printed. */
async function gwUp(args: string[]): Promise<{ child: ChildProcess; stdout: string; stderr: () => string; exited: Promise<number | null> }> {
  const child = spawn(join(REPO_ROOT, 'bin', 'gw'), ['up', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  return { child, stdout, stderr: () => stderr, exited };
}

describe('gw up', () => {
  const stateDir = join(mkdtempSync(join(tmpdir(), 'gw-up-test-')), 'state');
  afterAll(() => rmSync(join(stateDir, '..'), { recursive: true, force: true }));

  it('brings up the control plane, CRDs, gateway, operator and samples, proxies a request, and stops everything on Ctrl-C', async () => {
    const { child, stdout, stderr: output, exited } = await gwUp(['--state-dir', stateDir, '--gateway-port', '0']);
    const stderr = output();

    expect(stderr).toMatch(/\[1\/7\][\s\S]*\[2\/7\][\s\S]*\[3\/7\][\s\S]*\[4\/7\][\s\S]*\[5\/7\][\s\S]*\[6\/7\][\s\S]*\[7\/7\]/); // progress while it boots
    const kubeconfig = /export KUBECONFIG=(\S+)/.exec(stdout)?.[1];
    const binDir = /export PATH=(\S+):\$PATH/.exec(stdout)?.[1];
    expect(kubeconfig).toBe(join(stateDir, 'kubeconfig'));
    expect(stdout).toContain('One request through the gateway with the sample key: HTTP 200 (without the key: HTTP 401)');
    expect(stdout).toMatch(/apidefinition\.gw\.gw\.io\/httpbin-protected .*Successful/);
    // The curl line it prints works.
    const curl = /curl -H 'Authorization: (\S+)' (\S+)/.exec(stdout);
    expect(curl).not.toBeNull();
    const echoed = await fetch(curl![2]!, { headers: { authorization: curl![1]! } });
    expect(echoed.status).toBe(200);
    expect(((await echoed.json()) as { path: string }).path).toBe('/get');
    const get = spawn(join(binDir!, 'kubectl'), ['get', 'crd', 'apidefinitions.gw.gw.io', '-o', 'name'], { env: { ...process.env, KUBECONFIG: kubeconfig } });
    let crd = '';
    get.stdout.on('data', (chunk: Buffer) => (crd += chunk.toString()));
    await new Promise((resolveGet) => get.on('exit', resolveGet));
    expect(crd.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/apidefinitions.gw.gw.io');

    const pids = Object.values((JSON.parse(readFileSync(join(stateDir, 'state.json'), 'utf8')) as { pids: Record<string, number> }).pids);
    expect(pids).toHaveLength(3);
    const started = processesMentioning(stateDir).filter((pid) => pid !== child.pid);
    expect(started.length).toBeGreaterThanOrEqual(5); // etcd, apiserver, controller-manager, gateway, operator
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(pids.filter(isRunning)).toEqual([]);
    expect(processesMentioning(stateDir)).toEqual([]);
    expect(existsSync(stateDir)).toBe(false);
    expect(output()).toContain('nothing is left running');
  });

  it('--licensed adds the dashboard: the sample is synced into it and served from it, its web UI opens with the printed key', async () => {
    const { child, stdout, stderr, exited } = await gwUp(['--licensed', '--state-dir', stateDir, '--gateway-port', '0', '--dashboard-port', '0']);
    expect(stdout).toContain('One request through the gateway with the sample key: HTTP 200 (without the key: HTTP 401)');
    const ui = /The dashboard's web UI: (\S+)\/ {2}\(sign in as (\S+) with access key (\S+)\)/.exec(stdout);
    expect(ui, stdout).not.toBeNull();
    const [, url, , accessKey] = ui!;
    const page = await fetch(`${url!}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    const signIn = await fetch(`${url!}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_key: accessKey }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const apis = (await (await fetch(`${url!}/api/apis?p=-2`, { headers: { cookie } })).json()) as { apis: { api_definition: { name: string } }[] };
    expect(apis.apis.map((a) => a.api_definition.name)).toEqual(['httpbin-protected']);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(processesMentioning(stateDir)).toEqual([]);
    expect(stderr()).toContain('nothing is left running');
  });
});
