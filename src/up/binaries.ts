// Where kubectl, helm and the control-plane components come from: GW_TEST_BIN_DIR when set (binaries built
// elsewhere), otherwise scripts/build-controlplane.sh, which builds them once and answers from its cache after.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/** Directory holding controlplane, kubectl, helm, etcd, kube-apiserver and kube-controller-manager. */
export async function controlPlaneBinDir(): Promise<string> {
  const preset = process.env.GW_TEST_BIN_DIR;
  if (preset) {
    if (!existsSync(join(preset, 'kubectl'))) throw new Error(`GW_TEST_BIN_DIR=${preset} holds no kubectl`);
    return preset;
  }
  return new Promise((resolveDir, reject) => {
    // Progress goes to our stderr as it happens (a cold build takes a while); the last stdout line is the dir.
    const build = spawn(join(REPO_ROOT, 'scripts', 'build-controlplane.sh'), [], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    build.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    build.on('error', reject);
    build.on('exit', (code) => {
      const dir = out.trim().split('\n').pop() ?? '';
      if (code === 0 && dir) resolveDir(dir);
      else reject(new Error(`scripts/build-controlplane.sh failed (exit ${code})`));
    });
  });
}
