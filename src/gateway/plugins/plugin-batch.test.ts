// The plugin pool's batches (plugin-pool.ts, plugin-worker.ts) with its real worker thread: the calls handed in one
// turn of the event loop go to the worker as one message and are answered as one. Each call still stands alone: the
// answers keep the calls' order, a call that throws fails only itself, and a call over its time limit or exhausting
// the worker's heap fails only itself: the calls of the batch before it keep their answers (from the worker's
// journal), those after it run on a fresh worker. With two workers, calls spread over them, or (on one core) go to
// the busiest one, unless it waits on a host operation.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PluginPool, type HostHandler, type PluginOutcome } from './plugin-pool.ts';

const pool = new PluginPool({ workers: 1, queue: 32, timeoutMs: 500, memoryMb: 32 });
afterAll(() => pool.close());

const source = `var calls = 0;
function next() { calls += 1; return TykJsResponse({ Body: String(calls), Code: 200, Headers: {} }, {}); }
function fail() { calls += 1; throw new Error('call ' + calls + ' refused'); }
function spin() { for (;;) {} }
function hog() { var keep = []; for (;;) keep.push(new Array(100000).fill(keep.length)); }
function ask() { return TykJsResponse({ Body: TykGetKeyData('k', 'a'), Code: 200, Headers: {} }, {}); }
function big() { calls += 1; return TykJsResponse({ Body: new Array(50001).join('ab'), Code: 200, Headers: {} }, {}); }`;
/** Each test's own copy of the script: a context of its own, its counter from zero. */
let copies = 0;
let script = { id: 'batch-test-0', source };
const noHost: HostHandler = () => undefined;
const virtual = (name: string) => JSON.stringify({ kind: 'virtual', name, args: [{}, {}, {}] });
const body = (outcome: PluginOutcome) => (outcome.ok ? (JSON.parse(outcome.value!) as { Response: { Body: string } }).Response.Body : outcome.message);
/** Calls made in the same turn of the event loop: one batch. */
const batch = (...names: string[]) => Promise.all(names.map((name) => pool.call(script, virtual(name), noHost)));

describe('plugin pool batches', () => {
  beforeEach(() => {
    script = { id: `batch-test-${++copies}`, source };
  });

  it('answers the calls of a batch in the order they were made', async () => {
    expect((await batch('next', 'next', 'next', 'next', 'next', 'next', 'next', 'next')).map(body)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  it('a call that throws in the middle of a batch fails alone', async () => {
    const outcomes = await batch('next', 'fail', 'next');
    expect(outcomes.map(body)).toEqual(['1', 'call 2 refused', '3']);
    expect(outcomes[1]).toMatchObject({ ok: false, timedOut: false });
  });

  it('a call over its time limit in a batch fails alone: the calls before it keep their answers, those after run on a fresh worker', async () => {
    const outcomes = await batch('next', 'next', 'spin', 'next', 'next');
    expect(outcomes[2]).toEqual({ ok: false, message: 'JS middleware timed out after 500ms', timedOut: true });
    expect(outcomes.map(body)).toEqual(['1', '2', 'JS middleware timed out after 500ms', '1', '2']);
  });

  it('a call exhausting the heap in a batch fails alone: the calls before it keep their answers, those after run on a fresh worker', async () => {
    // A time limit the heap runs out well before, even on a loaded machine.
    const roomy = new PluginPool({ workers: 1, queue: 32, timeoutMs: 30_000, memoryMb: 32 });
    try {
      const outcomes = await Promise.all(['next', 'hog', 'next'].map((name) => roomy.call(script, virtual(name), noHost)));
      expect(outcomes[1]).toEqual({ ok: false, message: 'the plugin worker ran out of memory (jsvm_memory_mb)', timedOut: false });
      expect([body(outcomes[0]!), body(outcomes[2]!)]).toEqual(['1', '1']);
    } finally {
      await roomy.close();
    }
  });

  it('an answer larger than the journal is posted at once, with those before it, and the batch goes on', async () => {
    const outcomes = await batch('next', 'big', 'next', 'spin');
    expect(body(outcomes[0]!)).toBe('1');
    expect(body(outcomes[1]!)).toHaveLength(100_000);
    expect(body(outcomes[2]!)).toBe('3');
    expect(outcomes[3]).toMatchObject({ ok: false, timedOut: true });
  });

  it('spreads calls over idle workers, or keeps them on one worker when asked not to spread', async () => {
    const spreading = new PluginPool({ workers: 2, queue: 32, timeoutMs: 500, memoryMb: 32, spread: true });
    const joining = new PluginPool({ workers: 2, queue: 32, timeoutMs: 500, memoryMb: 32, spread: false });
    const turn = (on: PluginPool) => Promise.all([1, 2, 3, 4].map(() => on.call(script, virtual('next'), noHost)));
    try {
      // Each worker has its own context: its own counter.
      expect((await turn(spreading)).map(body)).toEqual(['1', '1', '2', '2']);
      expect((await turn(joining)).map(body)).toEqual(['1', '2', '3', '4']);
    } finally {
      await Promise.all([spreading.close(), joining.close()]);
    }
  });

  it('not spreading, a call goes to another worker while the busy one waits on a host operation', async () => {
    const joining = new PluginPool({ workers: 2, queue: 32, timeoutMs: 30_000, memoryMb: 32, spread: false });
    let asked!: () => void;
    const hostAsked = new Promise<void>((resolve) => (asked = resolve));
    let release!: (value: string) => void;
    const held: HostHandler = () => {
      asked();
      return new Promise((resolve) => (release = resolve));
    };
    try {
      const waiting = joining.call(script, virtual('ask'), held);
      await hostAsked;
      // Served while the first worker still waits: it ran on the second (a context of its own, counting from one).
      expect(body(await joining.call(script, virtual('next'), noHost))).toBe('1');
      release('the key');
      expect(body(await waiting)).toBe('the key');
    } finally {
      await joining.close();
    }
  });
});
