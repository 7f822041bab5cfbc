// controlPlaneUsers: which test files reach the control plane, read from their sources and what they import under
// test/ (transitively, through cycles), and the split it makes of this repository's integration files.
import { globSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlPlaneUsers } from './control-plane-users.ts';

const ROOT = '/repo/test';

function sources(files: Record<string, string>): (file: string) => string | undefined {
  return (file) => files[file];
}

describe('controlPlaneUsers', () => {
  it('counts a file that injects the kubeconfig or the tools directory itself', () => {
    const users = controlPlaneUsers(
      ROOT,
      sources({
        [`${ROOT}/a.test.ts`]: "const config = inject('kubeconfig');",
        [`${ROOT}/b.test.ts`]: 'const tools = inject ( "binDir" );',
        [`${ROOT}/c.test.ts`]: "const other = inject('somethingElse'); // kubeconfig in a comment is not a call",
      }),
    );
    expect([users.uses(`${ROOT}/a.test.ts`), users.uses(`${ROOT}/b.test.ts`), users.uses(`${ROOT}/c.test.ts`)]).toEqual([true, true, false]);
  });

  it('follows static, side-effect and dynamic relative imports under test/, transitively', () => {
    const users = controlPlaneUsers(
      ROOT,
      sources({
        [`${ROOT}/integration/static.test.ts`]: "import { kubectl } from '../support/kubectl.ts';",
        [`${ROOT}/integration/side-effect.test.ts`]: "import '../support/operator.ts';",
        [`${ROOT}/integration/dynamic.test.ts`]: "const m = await import('../support/operator.ts');",
        [`${ROOT}/support/operator.ts`]: "export * from './kubectl.ts';",
        [`${ROOT}/support/kubectl.ts`]: "export const env = () => inject('binDir');",
        [`${ROOT}/integration/gateway.test.ts`]: "import { startGateway } from '../support/gateway.ts';",
        [`${ROOT}/support/gateway.ts`]: "import { waitUntil } from './wait.ts';",
        [`${ROOT}/support/wait.ts`]: 'export const waitUntil = () => {};',
      }),
    );
    expect(users.uses(`${ROOT}/integration/static.test.ts`)).toBe(true);
    expect(users.uses(`${ROOT}/integration/side-effect.test.ts`)).toBe(true);
    expect(users.uses(`${ROOT}/integration/dynamic.test.ts`)).toBe(true);
    expect(users.uses(`${ROOT}/integration/gateway.test.ts`)).toBe(false);
  });

  it('does not follow modules outside test/ nor missing files, and ends on import cycles', () => {
    const users = controlPlaneUsers(
      ROOT,
      sources({
        [`${ROOT}/x.test.ts`]: "import { a } from '../src/a.ts'; import { b } from './missing.ts'; import { c } from './c.ts';",
        '/repo/src/a.ts': "inject('kubeconfig')",
        [`${ROOT}/c.ts`]: "import { d } from './d.ts';",
        [`${ROOT}/d.ts`]: "import { c } from './c.ts';",
        [`${ROOT}/y.test.ts`]: "import { c } from './c.ts'; import { e } from './e.ts';",
        [`${ROOT}/e.ts`]: "import { d } from './d.ts'; inject('binDir');",
      }),
    );
    expect(users.uses(`${ROOT}/x.test.ts`)).toBe(false);
    expect(users.uses(`${ROOT}/y.test.ts`)).toBe(true);
    // A module first met inside a cycle is answered on its own afterwards, not from a half-finished visit.
    expect(users.uses(`${ROOT}/d.ts`)).toBe(false);
  });

  it('splits this repository: kubectl and operator helpers reach the cluster, gateway and dashboard files do not', () => {
    const test = resolve(import.meta.dirname, '..');
    const users = controlPlaneUsers(test);
    expect(users.uses(join(test, 'support', 'kubectl.ts'))).toBe(true);
    expect(users.uses(join(test, 'support', 'operator.ts'))).toBe(true);
    expect(users.uses(join(test, 'integration', 'controlplane.test.ts'))).toBe(true);
    expect(users.uses(join(test, 'integration', 'gateway', 'proxy.test.ts'))).toBe(false);
    expect(users.uses(join(test, 'integration', 'dashboard', 'keys.test.ts'))).toBe(false);
    const integration = globSync('integration/**/*.test.ts', { cwd: test });
    const standalone = integration.filter((file) => !users.uses(join(test, file)));
    expect(standalone.length).toBeGreaterThan(0);
    expect(standalone.length).toBeLessThan(integration.length);
  });
});
