// The template engine's own Go tests (src/gateway/template/engine/*_test.go), run with the machine's Go as part of
// npm test: the fast JSON decoder and encoder are compared there with encoding/json on a corpus and on random edits
// of it, so a body transform's output stays byte for byte Tyk\'s.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';

const run = promisify(execFile);

describe('template engine (Go)', () => {
  // Go compiles the test binary first. With the build flags of scripts/build-template-engine.sh (-trimpath,
  // -buildvcs=false) it reuses the packages that build left in Go's cache (12 s of CPU on a fresh machine instead of
  // 43 s, which under a loaded CI run took past the project's 120 s); the limit is raised for that compile as well.
  it('passes its Go tests: the fast JSON decoder and encoder agree with encoding/json', { timeout: 400_000 }, async () => {
    const { stdout } = await run('go', ['test', '-trimpath', '-buildvcs=false', '-count=1', '.'], {
      cwd: join(REPO_ROOT, 'src', 'gateway', 'template', 'engine'),
      env: { ...process.env, CGO_ENABLED: '0' },
    });
    expect(stdout).toMatch(/^ok\s/m);
  });
});
