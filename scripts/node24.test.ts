// The Node bootstrap (scripts/node24.mjs): when it fetches Node 24, what package.json's engines claims, and the one
// warning it keeps off stderr.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentNodeIsEnough } from './node24.mjs';

describe('Node bootstrap', () => {
  it('fetches Node 24 only where the running node cannot strip TypeScript types', () => {
    expect(currentNodeIsEnough('20.20.2')).toBe(false);
    expect(currentNodeIsEnough('22.17.1')).toBe(false);
    expect(currentNodeIsEnough('22.18.0')).toBe(true);
    expect(currentNodeIsEnough('24.21.0')).toBe(true);
    expect(currentNodeIsEnough('26.0.0')).toBe(true);
  });
});

describe('package.json engines', () => {
  it('names the first Node that runs gw as is (the bootstrap serves older ones with Node 24)', () => {
    const { engines } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { engines: { node: string } };
    const lowest = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines.node);
    expect(lowest, engines.node).not.toBeNull();
    const [, major, minor] = lowest!.map(Number) as [number, number, number];
    expect(currentNodeIsEnough(`${major}.${minor}.0`)).toBe(true);
    expect(currentNodeIsEnough(minor > 0 ? `${major}.${minor - 1}.99` : `${major - 1}.99.99`)).toBe(false);
  });
});

describe('quietWasiWarning', () => {
  it("drops Node's WASI experimental warning and prints every other warning as before", () => {
    const script = [
      `import { quietWasiWarning } from ${JSON.stringify(join(import.meta.dirname, 'node24.mjs'))};`,
      'quietWasiWarning();',
      "await import('node:wasi');",
      "process.emitWarning('something else is experimental', 'ExperimentalWarning');",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('ExperimentalWarning: something else is experimental');
    expect(run.stderr).not.toContain('WASI');
  });
});
