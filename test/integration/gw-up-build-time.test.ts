// How long the first `gw up` takes to build the control plane is said in one place, scripts/build-controlplane.sh
// (COLD_BUILD_TIME, measured), printed only when a build runs, and quoted by the README. Before, the README said
// "6–8 minutes", gw up's first step "~6 min" on every run (cached or not), and the script "~25 min".
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGw } from '../support/cli.ts';
import { REPO_ROOT } from '../../src/up/paths.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gw-up-build-time-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

describe('the control plane build time', () => {
  it("the README quotes the build script's measured figure", () => {
    const script = readFileSync(join(REPO_ROOT, 'scripts', 'build-controlplane.sh'), 'utf8');
    const figure = /^COLD_BUILD_TIME='([^']+)'$/m.exec(script)?.[1];
    expect(figure).toBeDefined();
    expect(script).toContain('(cold: $COLD_BUILD_TIME;');
    expect(oneLine(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'))).toContain(figure);
  });

  it('gw up prints no estimate when the binaries are cached', async () => {
    // A cluster that does not answer: gw up locates the (cached) binaries, then fails at the CRDs, starting nothing.
    const kubeconfig = join(scratch, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n',
    );
    const { code, stderr } = await runGw(['up', '--kubeconfig', kubeconfig, '--state-dir', join(scratch, 'state'), '--gateway-port', '0']);
    expect(code).toBe(1);
    expect(stderr).toContain('[1/7] locating kubectl and the control plane');
    expect(stderr).toContain('[3/7] installing the gw CRDs');
    expect(stderr).not.toMatch(/\d+ min/);
  });
});
