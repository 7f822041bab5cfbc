// A plugin's import() (plugin-worker.ts refuseImport) with the pool's real worker thread: written in the source, in
// an eval or in a Function body, it imports nothing and never hands over an error of the worker's realm (whose
// constructor's constructor would be the worker's Function, and through it `process` and every built-in module).
import { afterAll, describe, expect, it } from 'vitest';
import { noHost, responseBody as body, virtualCall as virtual } from '../../../test/support/plugin-calls.ts';
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
  it('is refused in the source, an eval and a Function body, with nothing of the worker’s realm reached', async () => {
    expect(body(await pool.call(script, virtual('tryImports'), noHost))).toBe('started');
    // The worker never returns to its event loop (it waits for jobs on a shared word), so the refusal, which Node
    // settles through the worker's own microtasks, may never reach the plugin: its import() then stays pending. Either
    // way nothing is imported and no error of the worker's realm is handed over. Later calls of the same context run
    // its microtasks (any refusal that did settle is then recorded). Today all three stay pending; should the worker
    // return to its event loop again, refuseImport's string is what settles them, and this test checks that.
    for (let call = 0; call < 3; call++) await pool.call(script, virtual('tryImports'), noHost);
    const seen = JSON.parse(body(await pool.call(script, virtual('outcomes'), noHost))) as Record<string, string>;
    const refused = 'refused: import() is not available to plugins';
    expect(Object.keys(seen).sort()).toEqual(['eval', 'function', 'source']);
    for (const outcome of Object.values(seen)) expect([refused, 'pending']).toContain(outcome);
  });
});
