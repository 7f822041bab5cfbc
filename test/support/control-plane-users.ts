// Which test files reach the suite's Kubernetes control plane, decided by reading them (vitest.config.ts splits the
// integration files on it, so a new file lands in the right project without a list to maintain). A file reaches
// the control plane when it, or a module under test/ that it imports (transitively), calls
// inject('kubeconfig') or inject('binDir') — the only way test code gets the cluster of test/support/global-setup.ts.
// Imports are read from the source text: static `from '…'`, side-effect `import '…'` and dynamic `import('…')`
// with relative specifiers; modules outside test/ (src/, node_modules) never inject and are not followed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';

const INJECTS_CLUSTER = /\binject\s*\(\s*['"](?:kubeconfig|binDir)['"]/;
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"\n]+)['"]/g;

export interface ControlPlaneUsers {
  /** True when `file` (absolute) or a module under test/ it imports injects the cluster. */
  uses(file: string): boolean;
}

/** A module's source, or undefined when there is no such file (an import of a package subpath, a typo). */
export type ReadSource = (file: string) => string | undefined;

const readFromDisk: ReadSource = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

/** `testRoot` is the directory whose modules are followed (the repository's test/). */
export function controlPlaneUsers(testRoot: string, read: ReadSource = readFromDisk): ControlPlaneUsers {
  const root = resolve(testRoot) + sep;
  const known = new Map<string, boolean>();

  function visit(file: string, visiting: Set<string>): boolean {
    const cached = known.get(file);
    if (cached !== undefined) return cached;
    // An import cycle back to a module still being read adds nothing that module's own answer will not hold.
    if (visiting.has(file)) return false;
    visiting.add(file);
    const source = read(file) ?? '';
    let result = INJECTS_CLUSTER.test(source);
    for (const match of result ? [] : source.matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), match[1]!);
      if (!target.startsWith(root)) continue;
      if (visit(target, visiting)) {
        result = true;
        break;
      }
    }
    visiting.delete(file);
    // Only a module's settled answer is cached: a `false` reached through a cycle may still turn true.
    if (result || visiting.size === 0) known.set(file, result);
    return result;
  }

  return { uses: (file) => visit(resolve(file), new Set()) };
}
