// A plugin's import() (plugin-worker.ts refuseImport) with the pool's real worker thread: written in the source, in
// an eval or in a Function body, it is refused with a string, never with an error of the worker's realm (whose
// constructor's constructor would be the worker's Function, and through it `process` and every built-in module).
import { afterAll, describe, expect, it } from 'vitest';
import { noHost, responseBody as body, virtualCall as virtual } from '../../../test/support/plugin-calls.ts';
import { waitUntil } from '../../../test/support/wait.ts';
import { PluginPool } from './plugin-pool.ts';

const pool = new PluginPool({ workers: 1, queue: 4, timeoutMs: 1000, memoryMb: 32 });
afterAll(() => pool.close());

const script = {
  id: 'import-test',
  source: `var seen = {};
function look(way, promise) {
  seen[way] = 'pending';
  promise.then(
    function (module) { seen[way] = 'imported ' + typeof module; },
    function (error) {
      try {
        var reached = error.constructor.constructor('return typeof process')();
        seen[way] = reached === 'object' ? 'process reached' : 'refused: ' + (typeof error === 'string' ? error : error.message);
      } catch (e) { seen[way] = 'refused'; }
    });
}
function tryImports() {
  look('source', import('node:child_process'));
  look('eval', eval("import('node:fs')"));
  look('function', Function("return import('node:fs')")());
  return TykJsResponse({ Body: 'started', Code: 200, Headers: {} }, {});
}
function outcomes() { return TykJsResponse({ Body: JSON.stringify(seen), Code: 200, Headers: {} }, {}); }`,
};

describe('import() in a plugin', () => {
  it('is refused in the source, an eval and a Function body, with nothing of the worker’s realm in the refusal', async () => {
    expect(body(await pool.call(script, virtual('tryImports'), noHost))).toBe('started');
    // The refusals settle in the context's microtasks, which run after a later call of the same context.
    const seen = await waitUntil('the three imports to settle', async () => {
      const now = JSON.parse(body(await pool.call(script, virtual('outcomes'), noHost))) as Record<string, string>;
      return Object.values(now).every((outcome) => outcome !== 'pending') ? now : undefined;
    });
    const refused = 'refused: import() is not available to plugins';
    expect(seen).toEqual({ source: refused, eval: refused, function: refused });
  });
});
