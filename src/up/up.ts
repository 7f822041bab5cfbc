// `gw up`: the whole system on this machine, on its embedded defaults, until Ctrl-C; then nothing is left running.
//
// Today that is a local Kubernetes control plane (built once from test/controlplane, cached after) with gw's CRDs
// installed, or an existing cluster given by --kubeconfig. The gateway, the operator and a sample API join it as
// they land (issues 3-5). Progress goes to stderr; the summary (what runs where, how to aim kubectl at it) to stdout.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { controlPlaneBinDir } from './binaries.ts';
import { runningControlPlane, startControlPlane, stopControlPlane } from './controlplane.ts';
import { installCrds } from './crds.ts';
import { cacheRoot } from './paths.ts';

const run = promisify(execFile);

export const usage = `usage: gw up [--kubeconfig FILE] [--state-dir DIR]

Starts the whole system locally and keeps it running until Ctrl-C.

  --kubeconfig FILE   use this cluster instead of starting a local control plane
                      (default: a local etcd + kube-apiserver + kube-controller-manager; the first run needs Go)
  --state-dir DIR     where the local control plane keeps its data, logs and kubeconfig
                      (default: $GW_CACHE_DIR/up, GW_CACHE_DIR defaulting to ~/.cache/gw); removed on exit
`;

export async function up(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { kubeconfig: { type: 'string' }, 'state-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const step = (n: number, total: number, text: string): boolean => process.stderr.write(`[${n}/${total}] ${text}\n`);
  const stateDir = values['state-dir'] ?? join(cacheRoot(), 'up');
  const already = runningControlPlane(stateDir);
  if (already && !values.kubeconfig) {
    process.stderr.write(`gw up is already running (KUBECONFIG=${already.kubeconfig}); stop it with Ctrl-C where it runs\n`);
    return 1;
  }

  step(1, 3, 'locating kubectl and the control plane (the first run builds them: ~6 min on 2 cores)');
  const binDir = await controlPlaneBinDir();
  const kubectl = join(binDir, 'kubectl');
  let kubeconfig = values.kubeconfig;
  let stop = async (): Promise<void> => {};
  const components: string[] = [];
  if (kubeconfig) {
    step(2, 3, `using the cluster of ${kubeconfig}`);
  } else {
    step(2, 3, 'starting the local control plane');
    await stopControlPlane(stateDir); // leftovers of a gw up that was killed
    const plane = await startControlPlane({ dir: stateDir, binDir, log: (line) => process.stderr.write(`      ${line}\n`) });
    kubeconfig = plane.kubeconfig;
    components.push(`kube-apiserver          ${plane.server}`, `etcd, kube-controller-manager   logs in ${join(stateDir, 'logs')}`);
    stop = async () => {
      await plane.stop();
      rmSync(stateDir, { recursive: true, force: true });
    };
  }
  try {
    step(3, 3, 'installing the gw CRDs');
    await installCrds({ kubectl, kubeconfig });
    const resources = await run(kubectl, ['api-resources', '--categories', 'gw'], { env: { ...process.env, KUBECONFIG: kubeconfig } });
    process.stdout.write(
      [
        '',
        'gw is up.',
        ...components.map((line) => `  ${line}`),
        '',
        'Aim kubectl and helm at it:',
        `  export KUBECONFIG=${kubeconfig}`,
        `  export PATH=${binDir}:$PATH`,
        '',
        'Custom resources (kubectl get gw):',
        resources.stdout.trimEnd().replace(/^/gm, '  '),
        '',
        'Press Ctrl-C to stop everything.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    await stop();
    throw error;
  }

  await new Promise<void>((resolveSignal) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolveSignal());
  });
  process.stderr.write('stopping ...\n');
  await stop();
  process.stderr.write('stopped; nothing is left running\n');
  return 0;
}
