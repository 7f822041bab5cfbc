// Memory outside the worker's heap limit (js-api.ts), with the pool's real worker thread: jsvm_memory_mb bounds the
// V8 heap only, and array buffers, typed arrays, shared memory and WebAssembly memories live beside it (a plugin
// held 2 GB across calls of a 32 MB worker), so a plugin finds none of them; its strings and objects stay on the
// bounded heap.
import { afterAll, describe, expect, it } from 'vitest';
import { noHost, responseBody, virtualCall } from '../../../test/support/plugin-calls.ts';
import { PluginPool } from './plugin-pool.ts';

const pool = new PluginPool({ workers: 1, queue: 4, timeoutMs: 2000, memoryMb: 32 });
afterAll(() => pool.close());

const OUTSIDE_HEAP = ['ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'WebAssembly', 'Uint8Array', 'Float64Array', 'BigInt64Array'];

const script = {
  id: 'memory-test',
  source: `function reach() {
  var found = ${JSON.stringify(OUTSIDE_HEAP)}.filter(function (name) { return typeof globalThis[name] !== 'undefined'; });
  var allocated;
  try { allocated = 'allocated ' + new ArrayBuffer(64 * 1024 * 1024).byteLength; } catch (e) { allocated = 'refused'; }
  return TykJsResponse({ Body: JSON.stringify({ found: found, allocated: allocated, strings: typeof String, json: typeof JSON }), Code: 200, Headers: {} }, {});
}`,
};

describe('plugin memory outside the heap', () => {
  it('leaves a plugin no array buffer, typed array, shared memory or WebAssembly; the rest of the language stays', async () => {
    const outcome = await pool.call(script, virtualCall('reach'), noHost);
    expect(outcome.ok).toBe(true);
    expect(JSON.parse(responseBody(outcome))).toEqual({ found: [], allocated: 'refused', strings: 'function', json: 'object' });
  });
});
