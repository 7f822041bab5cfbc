// The project's CRDs in the suite's cluster (see src/up/crds.ts); every test file that needs them calls this.
import { join } from 'node:path';
import { inject } from 'vitest';
import { installCrds as install } from '../../src/up/crds.ts';

export function installCrds(): Promise<void> {
  return install({ kubectl: join(inject('binDir'), 'kubectl'), kubeconfig: inject('kubeconfig'), fieldManager: 'gw-tests' });
}
