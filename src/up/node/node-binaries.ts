// Where the node's binaries come from: scripts/build-node.sh, which builds kubelet, kube-proxy, kube-scheduler and
// pause once and answers from its cache after (GW_TEST_NODE_BIN_DIR: binaries built elsewhere).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths.ts';

export function nodeBinDir(): string {
  const preset = process.env.GW_TEST_NODE_BIN_DIR;
  if (preset) {
    if (!existsSync(join(preset, 'kube-node'))) throw new Error(`GW_TEST_NODE_BIN_DIR=${preset} holds no kube-node`);
    return preset;
  }
  // Progress goes to our stderr as it happens (a cold build takes minutes); the last stdout line is the directory.
  const out = execFileSync(join(REPO_ROOT, 'scripts', 'build-node.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').at(-1)!;
}
