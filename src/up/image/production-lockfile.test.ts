// `npm ci --omit=dev` (the Dockerfile's deps stage and src/up/image/build-image.ts) installs what the LOCKFILE says is
// not dev-only, whatever package.json's dependencies say. A package listed in both dependencies and
// devDependencies is locked as dev-only and left out of the image: the gateway pod then failed with "Cannot find
// package 'ws'". Here every package reachable from the production dependencies must be locked for production.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.ts';

interface LockedPackage {
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };

/** Where Node finds `name` from the package at lock path `from`: the nearest node_modules up the tree. */
function resolveLocked(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut >= 0 ? base.slice(0, cut) : '';
  }
}

describe('the lockfile npm ci --omit=dev installs from', () => {
  it('lists no package both as a dependency and a devDependency (npm then locks it dev-only)', () => {
    expect(Object.keys(manifest.dependencies).filter((name) => name in manifest.devDependencies)).toEqual([]);
  });

  it('locks every package the production dependencies need for production', () => {
    const needed = new Set<string>();
    const pending = Object.keys(manifest.dependencies)
      .map((name) => resolveLocked('', name))
      .filter((path) => path !== undefined);
    while (pending.length > 0) {
      const path = pending.pop()!;
      if (needed.has(path)) continue;
      needed.add(path);
      const locked = lock.packages[path]!;
      for (const name of Object.keys({ ...locked.dependencies, ...locked.optionalDependencies })) {
        const resolved = resolveLocked(path, name);
        if (resolved) pending.push(resolved);
      }
    }
    expect(needed.size).toBeGreaterThan(Object.keys(manifest.dependencies).length);
    expect([...needed].filter((path) => lock.packages[path]!.dev === true)).toEqual([]);
  });
});
