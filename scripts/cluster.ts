// `npm run cluster:up` / `npm run cluster:down`: a local control plane that outlives the command, for working by
// hand. State lives in <repo>/.cache/cluster. `up` prints progress on stderr and, as its last two lines on stdout,
// the exports that aim kubectl and helm at it, so `eval "$(npm run -s cluster:up)"` works. Running `up` again while
// it runs only prints the exports. `down` stops exactly the processes `up` started.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/up/paths.ts';
import { runningControlPlane, startControlPlane, stopControlPlane } from '../src/up/controlplane.ts';

const STATE_DIR = join(REPO_ROOT, '.cache', 'cluster');

async function up(): Promise<void> {
  let cluster = runningControlPlane(STATE_DIR);
  if (cluster) {
    console.error(`control plane already running at ${cluster.server}`);
  } else {
    await stopControlPlane(STATE_DIR); // leftovers of a half-dead earlier run
    cluster = await startControlPlane({ dir: STATE_DIR, detached: true, log: (line) => console.error(line) });
    console.error('stop it with: npm run cluster:down');
  }
  console.log(`export KUBECONFIG=${cluster.kubeconfig}`);
  console.log(`export PATH=${cluster.binDir}:$PATH`);
}

async function down(): Promise<void> {
  if (await stopControlPlane(STATE_DIR)) console.error('control plane stopped');
  else console.error('no control plane was running');
  rmSync(STATE_DIR, { recursive: true, force: true });
}

const command = process.argv[2];
if (command === 'up') await up();
else if (command === 'down') await down();
else {
  console.error('usage: scripts/cluster.ts up|down');
  process.exitCode = 2;
}
