// A process that starts a test node it owns, says "ready", and waits to be killed: the node e2e kills it with
// SIGKILL to show that a killed run leaves nothing the next start cannot undo. Run by the test only.
//   node node-crash-child.ts '<json: {dir, cluster: {kubeconfig, server, binDir}, nodeBinDir, images}>'
import { startNode, type NodeOptions } from '../../src/up/node/node.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as Pick<NodeOptions, 'dir' | 'cluster' | 'nodeBinDir' | 'images'>;
await startNode(options);
process.stdout.write('ready\n');
setInterval(() => {}, 1 << 30);
