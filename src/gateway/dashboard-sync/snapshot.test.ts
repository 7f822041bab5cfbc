// The licensed-mode snapshot on disk: written where storage.path says even when nothing created that directory (a
// gateway on a Redis store), and read back as written.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCachedSnapshot, snapshotFile, writeCachedSnapshot, type DashboardSnapshot } from './snapshot.ts';

const SNAPSHOT: DashboardSnapshot = {
  version: '"v1"',
  apis: [{ id: 'a1', format: 'classic', definition: { name: 'a1' } }],
  policies: [{ id: 'p1' }],
  keys: [],
  certs: [],
};

describe('dashboard snapshot file', () => {
  let base: string;
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('creates a missing storage.path (a Redis store makes none) and reads back what it wrote', () => {
    base = mkdtempSync(join(tmpdir(), 'gw-snapshot-'));
    const file = snapshotFile(join(base, 'data'));
    writeCachedSnapshot(file, SNAPSHOT);
    expect(readCachedSnapshot(file)).toEqual(SNAPSHOT);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(base, 'data')).mode & 0o777).toBe(0o700);
  });
});
