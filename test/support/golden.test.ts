// expectGolden: a missing golden file fails and stays missing; UPDATE_GOLDEN=1 writes it; a difference fails.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectGolden } from './golden.ts';

describe('expectGolden', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-golden-'));
    vi.stubEnv('UPDATE_GOLDEN', undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails on a missing golden file and does not create it, with or without CI set', () => {
    const file = join(dir, 'case.golden.json');
    for (const ci of [undefined, 'true']) {
      vi.stubEnv('CI', ci);
      expect(() => expectGolden(file, 'rendered\n')).toThrow(/golden file .*case\.golden\.json is missing/);
      expect(existsSync(file)).toBe(false);
    }
  });

  it('fails when the output differs from the golden file', () => {
    const file = join(dir, 'case.golden.json');
    writeFileSync(file, 'pinned\n');
    expect(() => expectGolden(file, 'changed\n')).toThrow();
    expect(() => expectGolden(file, 'pinned\n')).not.toThrow();
  });

  it('writes the golden file only with UPDATE_GOLDEN=1', () => {
    const file = join(dir, 'nested', 'case.golden.json');
    vi.stubEnv('UPDATE_GOLDEN', 'true'); // only "1" rewrites
    expect(() => expectGolden(file, 'rendered\n')).toThrow(/missing/);
    vi.stubEnv('UPDATE_GOLDEN', '1');
    expectGolden(file, 'rendered\n');
    expect(readFileSync(file, 'utf8')).toBe('rendered\n');
  });
});
