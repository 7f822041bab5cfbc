// The plugin pool's pipelining (plugin-pool.ts) with its real worker thread: calls handed to a worker behind the one
// it runs keep their order, the time limit ends only the running call (the calls behind it run on a fresh worker),
// jsvm_queue counts the calls handed ahead, a script that fails to load answers each call with its error, and the
// contexts stay sealed (no way out to the worker's realm).
import { afterAll, describe, expect, it } from 'vitest';
import { PluginPool, type HostHandler } from './plugin-pool.ts';

// One API here: it may hold the whole queue.
const pool = new PluginPool({ workers: 1, queue: 4, timeoutMs: 1000, memoryMb: 32, apiQueueShare: 1 });
afterAll(() => pool.close());

const script = {
  id: 'pipeline-test',
  source: `var calls = 0;
function next() { calls += 1; return TykJsResponse({ Body: String(calls), Code: 200, Headers: {} }, {}); }
function spin() { for (;;) {} }
function escape() {
  var ways = [
    function () { return this.constructor.constructor('return process')(); },
    function () { return TykJsResponse.constructor('return process')(); },
    function () { return Object.getPrototypeOf(TykJS).constructor.constructor('return process')(); },
    function () { return typeof require === 'function' ? require('node:fs') : undefined; },
  ];
  var reached = ways.map(function (way) { try { var found = way.call(globalThis); return found !== undefined && found !== null; } catch (e) { return false; } });
  return TykJsResponse({ Body: JSON.stringify(reached), Code: 200, Headers: {} }, {});
}
function overflow() {
  // At the stack's limit a host operation may throw inside the worker's own function: its error must not get out.
  var reached = false;
  function dive() {
    try { dive(); } catch (e) {
      try { log('deep'); } catch (inner) {
        try { reached = reached || !!inner.constructor.constructor('return process')(); } catch (x) { /* no way out: what the test wants */ }
      }
      throw e;
    }
  }
  try { dive(); } catch (e) { /* the overflow itself: only whether the host error leaked matters */ }
  return TykJsResponse({ Body: String(reached), Code: 200, Headers: {} }, {});
}`,
};
const noHost: HostHandler = () => undefined;
const virtual = (name: string) => JSON.stringify({ kind: 'virtual', name, args: [{}, {}, {}] });
const body = (outcome: Awaited<ReturnType<PluginPool['call']>>) =>
  outcome.ok ? (JSON.parse(outcome.value!) as { Response: { Body: string } }).Response.Body : outcome.message;

describe('plugin pool pipelining', () => {
  it('runs calls handed ahead in the order they came', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => pool.call(script, virtual('next'), noHost)));
    expect(outcomes.map(body)).toEqual(['1', '2', '3', '4']);
  });

  it('a call past its limit fails alone: the calls behind it run on a fresh worker, the queue full beyond jsvm_queue', async () => {
    const spinning = pool.call(script, virtual('spin'), noHost);
    const behind = [1, 2, 3, 4].map(() => pool.call(script, virtual('next'), noHost));
    const refused = await pool.call(script, virtual('next'), noHost);
    expect(refused).toEqual({ ok: false, message: 'too many plugin calls waiting (jsvm_queue)', timedOut: false });
    expect(await spinning).toEqual({ ok: false, message: 'JS middleware timed out after 1000ms', timedOut: true });
    // A fresh worker: the script loaded again, its counter from zero.
    expect((await Promise.all(behind)).map(body)).toEqual(['1', '2', '3', '4']);
  });

  it('a script that fails to load answers each call with its error; the worker goes on serving others', async () => {
    const broken = { id: 'pipeline-broken', source: 'function (' };
    const first = await pool.call(broken, virtual('next'), noHost);
    const again = await pool.call(broken, virtual('next'), noHost);
    expect(first).toMatchObject({ ok: false, timedOut: false });
    expect(again).toEqual(first);
    expect((await pool.call(script, virtual('next'), noHost)).ok).toBe(true);
  });

  it('no way out of a plugin context: Function constructors of its objects build functions of its own realm, without process or require', async () => {
    expect(body(await pool.call(script, virtual('escape'), noHost))).toBe('[false,false,false,false]');
    expect(body(await pool.call(script, virtual('overflow'), noHost))).toBe('false');
  });
});
