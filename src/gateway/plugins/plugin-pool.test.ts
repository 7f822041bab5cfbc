// The plugin pool (plugin-pool.ts) with its real worker threads: a script compiled once per worker and kept, a
// synchronous host operation answered from the gateway thread, the time limit (the worker ended) and the memory
// limit (a worker's heap) each failing only their call, with the pool serving the next call on a fresh worker.
import { afterAll, describe, expect, it } from 'vitest';
import { PluginPool, type HostHandler } from './plugin-pool.ts';
import { CONTEXTS_PER_WORKER } from './worker-protocol.ts';

const pool = new PluginPool({ workers: 1, queue: 10, timeoutMs: 1000, memoryMb: 32 });
afterAll(() => pool.close());

const script = {
  id: 'pool-test',
  source: `var loads = (typeof loads === 'number' ? loads : 0) + 1;
function count() { return TykJsResponse({ Body: String(loads), Code: 200, Headers: {} }, {}); }
function ask() { return TykJsResponse({ Body: TykGetKeyData('k', 'a'), Code: 200, Headers: {} }, {}); }
function spin() { for (;;) {} }
function hog() { var keep = []; for (;;) keep.push(new Array(100000).fill(keep.length)); }`,
};
const noHost: HostHandler = () => undefined;
const virtual = (name: string) => JSON.stringify({ kind: 'virtual', name, args: [{}, {}, {}] });
const body = (value: string | undefined) => (JSON.parse(value!) as { Response: { Body: string } }).Response.Body;

describe('plugin pool', () => {
  it('compiles a script once per worker and keeps its context for later calls', async () => {
    const first = await pool.call(script, virtual('count'), noHost);
    const second = await pool.call(script, virtual('count'), noHost);
    expect(first.ok && body(first.value)).toBe('1');
    expect(second.ok && body(second.value)).toBe('1');
  });

  it('drops the least recently used script past CONTEXTS_PER_WORKER and compiles it again when called', async () => {
    const numbered = (n: number) => ({
      id: `numbered-${n}`,
      source: `function which() { return TykJsResponse({ Body: '${n}', Code: 200, Headers: {} }, {}); }`,
    });
    for (let n = 0; n <= CONTEXTS_PER_WORKER; n++) expect((await pool.call(numbered(n), virtual('which'), noHost)).ok).toBe(true);
    const again = await pool.call(numbered(0), virtual('which'), noHost);
    expect(again.ok && body(again.value)).toBe('0');
  });

  it('answers a host operation while the plugin waits for it', async () => {
    const outcome = await pool.call(script, virtual('ask'), (op, arg) => Promise.resolve(op === 'getkey' ? `key ${arg}` : undefined));
    expect(outcome.ok && body(outcome.value)).toBe('key ["k","a"]');
  });

  it('ends a call past its time limit, and a new worker serves the next call', async () => {
    expect(await pool.call(script, virtual('spin'), noHost)).toEqual({ ok: false, message: 'JS middleware timed out after 1000ms', timedOut: true });
    const next = await pool.call(script, virtual('count'), noHost);
    expect(next.ok).toBe(true);
  });

  it('a plugin exhausting its heap ends its worker only; the next call runs on a new one', async () => {
    const outcome = await pool.call(script, virtual('hog'), noHost);
    expect(outcome.ok).toBe(false);
    const next = await pool.call(script, virtual('count'), noHost);
    expect(next.ok && body(next.value)).toBe('1');
  });
});
