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
  try {
    return await lastStdoutLine(join(REPO_ROOT, 'scripts', 'build-controlplane.sh'), []);
  } catch (error) {
    throw new Error(`scripts/build-controlplane.sh failed (${(error as Error).message})`, { cause: error });
  }
}

/**
 * Runs a build script, its progress on our stderr as it happens (a cold build takes a while), and answers the last
 * line it wrote to stdout. Read once stdout has closed: a process's exit can come before the last of its output
 * has been read (then the line was lost and a cached build counted as failed).
 */
export function lastStdoutLine(command: string, args: string[]): Promise<string> {
  return new Promise((resolveLine, reject) => {
    const build = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    build.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    build.on('error', reject);
    build.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line) resolveLine(line);
      else reject(new Error(code === 0 ? 'no output' : `exit ${code}`));
    });
  });
}
