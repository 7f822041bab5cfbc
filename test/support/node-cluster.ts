// A private control plane with a real node (src/up/node/node.ts) for the node e2e suites: its own state
// directory, the product image built by src/up/image/build-image.ts (cached) imported, kubectl/helm bound to it. The
// suites skip, printing why, when the machine lacks what a node needs or another test node is running here.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '../../src/up/controlplane.ts';
import { buildImage, type BuiltImage } from '../../src/up/image/build-image.ts';
import { missingNodeFeatures } from '../../src/up/node/host-features.ts';
import { directoriesBelow, hostState, type HostState } from '../../src/up/node/host-state.ts';
import { nodeBinDir } from '../../src/up/node/node-binaries.ts';
import { liveNode } from '../../src/up/node/node-lock.ts';
import { startNode, type TestNode } from '../../src/up/node/node.ts';
import { runTool, type CommandResult, type RunOptions } from './kubectl.ts';
import { nodeTurnHeld } from './node-turn.ts';

/** Why a node cannot run here (printed by the skipping suite), or null. */
export function nodeSkipReason(): string | null {
  const missing = missingNodeFeatures();
  if (missing.length > 0) return `no test node on this machine: missing ${missing.join('; ')}`;
  const other = liveNode();
  // Another suite's node is waited for (test/support/node-turn.ts); a node started by hand is not.
  if (other && !nodeTurnHeld()) return `another test node is running on this machine (state in ${other})`;
  return null;
}

/** This process's memory cgroup directory: the node's cgroups nest below it. */
const ownMemoryCgroup = (): string => `/sys/fs/cgroup/memory${(/^\d+:memory:(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8')) ?? [])[1] ?? ''}`;

export interface HostSnapshot extends HostState {
  cgroups: string[];
  varLibCni: boolean;
}

/** What a node may change on the host (src/up/node/host-state.ts) plus the cgroups below ours and /var/lib/cni. */
export const hostSnapshot = (): HostSnapshot => ({ ...hostState(), cgroups: directoriesBelow(ownMemoryCgroup()), varLibCni: existsSync('/var/lib/cni') });

export interface NodeCluster {
  cluster: ControlPlane;
  node: TestNode;
  image: BuiltImage;
  /** scripts/build-node.sh's output directory. */
  nodeBinDir: string;
  /** A directory of this cluster's, removed with it. */
  dir: string;
  /** Seconds: image build (or cache answer), control plane start, node start. */
  timings: { imageSeconds: number; controlPlaneSeconds: number; nodeSeconds: number };
  kubectl(args: string[], options?: RunOptions): Promise<CommandResult>;
  helm(args: string[], options?: RunOptions): Promise<CommandResult>;
  /** Stops the node (undoing its host changes), then the control plane; removes the state directory. */
  stop(): Promise<void>;
}

export async function startNodeCluster(log: (line: string) => void = () => {}): Promise<NodeCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-node-e2e-'));
  const seconds = (since: number): number => Math.round((Date.now() - since) / 100) / 10;
  let at = Date.now();
  const image = buildImage();
  const binDir = nodeBinDir();
  const imageSeconds = seconds(at);
  at = Date.now();
  // The apiserver reaches the kubelet (logs, exec) by the node's address: there is no DNS for its name.
  const cluster = await startControlPlane({ dir: join(dir, 'cluster'), apiserverArgs: ['--kubelet-preferred-address-types=InternalIP'] });
  const controlPlaneSeconds = seconds(at);
  at = Date.now();
  let node: TestNode;
  try {
    node = await startNode({ dir: join(dir, 'node'), cluster, nodeBinDir: binDir, images: [image.archive], log });
  } catch (error) {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const nodeSeconds = seconds(at);
  let stopped = false;
  return {
    cluster,
    node,
    image,
    nodeBinDir: binDir,
    dir,
    timings: { imageSeconds, controlPlaneSeconds, nodeSeconds },
    kubectl: (args, options) => runTool('kubectl', args, { kubeconfig: cluster.kubeconfig, ...options }),
    helm: (args, options) => runTool('helm', args, { kubeconfig: cluster.kubeconfig, timeoutMs: 180_000, ...options }),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        await node.stop();
      } finally {
        // A throwaway control plane: killed, not drained (its graceful stop takes ~20 s and proves nothing here).
        cluster.kill();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
