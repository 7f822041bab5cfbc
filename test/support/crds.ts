// The project's CRDs in the suite's cluster (see src/up/crds.ts); every test file that needs them calls this. The
// integration project's global setup installed them once for the run (test/support/global-setup.ts): then nothing
// is left to do; elsewhere (e2e) they are applied here.
import { join } from 'node:path';
import { inject } from 'vitest';
import { installCrds as install } from '../../src/up/crds.ts';

export async function installCrds(): Promise<void> {
  if (inject('crdsInstalled')) return;
  await install({ kubectl: join(inject('binDir'), 'kubectl'), kubeconfig: inject('kubeconfig'), fieldManager: 'gw-tests' });
}
