// Fairness of the plugin pool (plugin-pool.ts) between APIs, with its real worker threads: one API's calls that run
// until the time limit hold its workers, not every API's calls (those handed behind a long call are taken back, and
// other APIs' calls get an extra worker), and one API's waiting calls hold at most its share of the queue.
import { describe, expect, it } from 'vitest';
import { noHost, responseBody, virtualCall } from '../../../test/support/plugin-calls.ts';
import { PluginPool, type PluginOutcome } from './plugin-pool.ts';

const script = {
  id: 'fairness-test',
  source: `function spin() { for (;;) {} }
function hello() { return TykJsResponse({ Body: 'hello', Code: 200, Headers: {} }, {}); }`,
};

describe('plugin pool fairness between APIs', () => {
  it("answers another API's calls while one API's calls run until the time limit on every worker", async () => {
    // One core's placement (calls go to the busiest worker): without fairness, B's calls wait behind A's loop.
    const pool = new PluginPool({ workers: 1, queue: 100, timeoutMs: 1500, memoryMb: 32, spread: false, stuckMs: 50 });
    try {
      const settled: string[] = [];
      const track = (label: string, call: Promise<PluginOutcome>) =>
        call.then((outcome) => {
          settled.push(label);
          return outcome;
        });
      // One turn: B1 runs before A's loop in the same batch (its answer waits in the worker's journal), B2 and B3 behind.
      const first = track('B1', pool.call(script, virtualCall('hello'), noHost, 'api-b'));
      const looping = [1, 2].map((n) => track(`A${n}`, pool.call(script, virtualCall('spin'), noHost, 'api-a')));
      const others = [first, ...[2, 3].map((n) => track(`B${n}`, pool.call(script, virtualCall('hello'), noHost, 'api-b')))];
      expect((await Promise.all(others)).map(responseBody)).toEqual(['hello', 'hello', 'hello']);
      expect(settled).toEqual(['B1', 'B2', 'B3']);
      expect((await Promise.all(looping)).map(responseBody)).toEqual(['JS middleware timed out after 1500ms', 'JS middleware timed out after 1500ms']);
    } finally {
      await pool.close();
    }
  });

  it('a call taken back from a held worker runs elsewhere; its script, sent with it, still serves that worker later', async () => {
    const pool = new PluginPool({ workers: 1, queue: 100, timeoutMs: 60_000, memoryMb: 32, spread: false, stuckMs: 50 });
    try {
      const slow = {
        id: 'fairness-slow',
        source: `function slow() { var end = Date.now() + 400; while (Date.now() < end) {} return TykJsResponse({ Body: 'slow', Code: 200, Headers: {} }, {}); }`,
      };
      const fresh = { id: 'fairness-fresh', source: `function fresh() { return TykJsResponse({ Body: 'fresh', Code: 200, Headers: {} }, {}); }` };
      const held = pool.call(slow, virtualCall('slow'), noHost, 'api-a');
      // Handed behind the slow call with its source, taken back, answered by an extra worker while the slow one runs.
      const taken = await pool.call(fresh, virtualCall('fresh'), noHost, 'api-b');
      expect(responseBody(taken)).toBe('fresh');
      expect(responseBody(await held)).toBe('slow');
      // The first worker skipped the call but kept its source: it compiles it when the script is next called there.
      expect(responseBody(await pool.call(fresh, virtualCall('fresh'), noHost, 'api-b'))).toBe('fresh');
    } finally {
      await pool.close();
    }
  });

  it('a call taken back from a held worker and handed to it again runs there, once, with its own answer', async () => {
    // No extra workers: the call taken back can only go back to the worker it came from, once its long call ends.
    // It was skipped there again and again (handed back under the id the worker had been told to skip): never answered.
    const pool = new PluginPool({ workers: 1, queue: 100, timeoutMs: 60_000, memoryMb: 32, spread: false, stuckMs: 50, extraWorkers: 0 });
    try {
      const counted = {
        id: 'fairness-counted',
        source: `var runs = 0;
function slow() { var end = Date.now() + 1000; while (Date.now() < end) {} return TykJsResponse({ Body: 'slow', Code: 200, Headers: {} }, {}); }
function count() { runs += 1; return TykJsResponse({ Body: 'run ' + runs, Code: 200, Headers: {} }, {}); }`,
      };
      const held = pool.call(counted, virtualCall('slow'), noHost, 'api-a');
      const behind = pool.call(counted, virtualCall('count'), noHost, 'api-b');
      expect(responseBody(await held)).toBe('slow');
      expect(responseBody(await behind)).toBe('run 1');
      // It ran once: the next call is the second run.
      expect(responseBody(await pool.call(counted, virtualCall('count'), noHost, 'api-b'))).toBe('run 2');
    } finally {
      await pool.close();
    }
  });

  it("refuses an API's call past its share of the queue at once, while another API's call is taken", async () => {
    const pool = new PluginPool({ workers: 1, queue: 4, timeoutMs: 60_000, memoryMb: 32, spread: false, stuckMs: 50 });
    try {
      // A's first call runs; two more wait (half of the queue); the fourth is refused.
      const looping = [1, 2, 3].map(() => pool.call(script, virtualCall('spin'), noHost, 'api-a'));
      const refused = await pool.call(script, virtualCall('spin'), noHost, 'api-a');
      expect(refused).toEqual({ ok: false, message: 'too many plugin calls of this API waiting (its share of jsvm_queue)', timedOut: false });
      expect(responseBody(await pool.call(script, virtualCall('hello'), noHost, 'api-b'))).toBe('hello');
      await pool.close();
      expect((await Promise.all(looping)).map(responseBody)).toEqual(['the gateway is stopping', 'the gateway is stopping', 'the gateway is stopping']);
    } finally {
      await pool.close();
    }
  });
});
