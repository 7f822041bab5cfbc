// Installs gw's CustomResourceDefinitions (crds/ of this repository) into a cluster as users do — kubectl apply
// --server-side --force-conflicts (CRDs a `helm install` of the chart created are owned by the field manager `helm`;
// without the flag the apply stops on that conflict) — and waits until every one is Established. Idempotent:
// applying again changes nothing.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CRD_DIR } from './paths.ts';

const run = promisify(execFile);

export async function installCrds(options: { kubectl: string; kubeconfig: string; fieldManager?: string }): Promise<void> {
  const env = { ...process.env, KUBECONFIG: options.kubeconfig };
  await run(options.kubectl, ['apply', '--server-side', '--force-conflicts', `--field-manager=${options.fieldManager ?? 'gw'}`, '-f', CRD_DIR], { env });
  await run(options.kubectl, ['wait', '--for=condition=Established', '--timeout=60s', 'crd', '-l', 'app.kubernetes.io/part-of=gw'], { env });
}
