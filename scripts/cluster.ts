// `npm run cluster:up` / `npm run cluster:down`: a local control plane that outlives the command, for working by
// hand. State lives in <repo>/.cache/cluster. `up` prints progress on stderr and, as its last two lines on stdout,
// the exports that aim kubectl and helm at it, so `eval "$(npm run -s cluster:up)"` works. Running `up` again while
// it runs only prints the exports. `down` stops exactly the processes `up` started.
//
// `up --with-node` also starts a real node (scripts/node/node.ts: containerd, kubelet, kube-proxy, kube-scheduler,
// the CNI bridge on 10.99.0.1) with the product image (src/up/image/build-image.ts) imported, so `helm install` of the
// chart runs pods; `down` stops it too and undoes every host change it made. Without the kernel features or tools
// a node needs, `up --with-node` names what is missing and exits 1 (the control plane alone still works).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/up/paths.ts';
import { runningControlPlane, startControlPlane, stopControlPlane } from '../src/up/controlplane.ts';
import { buildImage } from '../src/up/image/build-image.ts';
import { nodeBinDir } from '../src/up/node/node-binaries.ts';
import { NodeUnavailableError, startNode, stopNode } from '../src/up/node/node.ts';
import { readNodeState } from '../src/up/node/teardown.ts';

const STATE_DIR = join(REPO_ROOT, '.cache', 'cluster');
const NODE_DIR = join(STATE_DIR, 'node');

async function up(withNode: boolean): Promise<void> {
  let cluster = runningControlPlane(STATE_DIR);
  if (cluster) {
    console.error(`control plane already running at ${cluster.server}`);
  } else {
    await stopNode(NODE_DIR); // a node left behind by a half-dead earlier run
    await stopControlPlane(STATE_DIR); // leftovers of a half-dead earlier run
    // With a node, the apiserver reaches the kubelet (logs, exec) by the node's address: there is no DNS for its name.
    const apiserverArgs = withNode ? ['--kubelet-preferred-address-types=InternalIP'] : [];
    cluster = await startControlPlane({ dir: STATE_DIR, detached: true, log: (line) => console.error(line), apiserverArgs });
    console.error('stop it with: npm run cluster:down');
  }
  if (withNode && readNodeState(NODE_DIR)) {
    console.error(`node already running (state in ${NODE_DIR})`);
  } else if (withNode) {
    try {
      const image = buildImage();
      const node = await startNode({
        dir: NODE_DIR,
        cluster,
        nodeBinDir: nodeBinDir(),
        images: [image.archive],
        outlivesStarter: true,
        log: (line) => console.error(line),
      });
      console.error(`node ${node.name} Ready at ${node.ip}; image ${image.reference} imported (pods: imagePullPolicy IfNotPresent or Never)`);
    } catch (error) {
      if (!(error instanceof NodeUnavailableError)) throw error;
      console.error(`${error.message}\nthe control plane runs without a node (as without --with-node)`);
      process.exitCode = 1;
    }
  }
  console.log(`export KUBECONFIG=${cluster.kubeconfig}`);
  console.log(`export PATH=${cluster.binDir}:$PATH`);
}

async function down(): Promise<void> {
  let nodeError: Error | undefined;
  try {
    if (await stopNode(NODE_DIR)) console.error('node stopped, host changes undone');
  } catch (error) {
    nodeError = error as Error;
  }
  // The control plane stops even when undoing a node change failed; the node's record then stays for a retry.
  if (await stopControlPlane(STATE_DIR)) console.error('control plane stopped');
  else console.error('no control plane was running');
  if (nodeError) throw nodeError;
  rmSync(STATE_DIR, { recursive: true, force: true });
}

const [command, ...flags] = process.argv.slice(2);
const unknown = flags.filter((flag) => flag !== '--with-node');
if (command === 'up' && unknown.length === 0) await up(flags.includes('--with-node'));
else if (command === 'down' && flags.length === 0) await down();
else {
  console.error('usage: scripts/cluster.ts up [--with-node] | down');
  process.exitCode = 2;
}
