// What a plugin hands the gateway thread is bounded (plugin-pool.ts maxMessageChars, worker-protocol.ts
// LOG_MESSAGE_CHARS), with the pool's real worker thread: an answer longer than the limit fails its call, a host
// operation's longer argument never reaches the gateway thread, and a log line is cut. The gateway thread copies
// and parses each of them while every API waits: a plugin must not hand it hundreds of megabytes.
import { afterAll, describe, expect, it } from 'vitest';
import { noHost, responseBody as body, virtualCall } from '../../../test/support/plugin-calls.ts';
import type { HostOp } from './js-api.ts';
import { PluginPool, type HostHandler } from './plugin-pool.ts';
import { LOG_MESSAGE_CHARS } from './worker-protocol.ts';

const LIMIT = 10_000;
const pool = new PluginPool({ workers: 1, queue: 4, timeoutMs: 2000, memoryMb: 32, maxMessageChars: LIMIT });
afterAll(() => pool.close());

const script = {
  id: 'message-size-test',
  source: `function text(n) { return new Array(n + 1).join('x'); }
function answer(request) { return TykJsResponse({ Body: text(Number(request.Body)), Code: 200, Headers: {} }, {}); }
function logs() { log(text(100000)); rawlog(text(100000)); return TykJsResponse({ Body: 'logged', Code: 200, Headers: {} }, {}); }
function fetch(request) {
  var answered = TykMakeHttpRequest(JSON.stringify({ Method: 'POST', Domain: 'http://example.test', Resource: '/', Body: text(Number(request.Body)) }));
  return TykJsResponse({ Body: String(answered), Code: 200, Headers: {} }, {});
}`,
};
const call = (name: string, size: number, host: HostHandler) => pool.call(script, virtualCall(name, { Body: String(size) }), host);

describe('plugin messages to the gateway thread', () => {
  it('fails a call whose answer is longer than maxMessageChars; a shorter one is answered', async () => {
    expect(body(await call('answer', 100, noHost))).toHaveLength(100);
    const long = await call('answer', 2 * LIMIT, noHost);
    expect(long).toEqual({ ok: false, message: `the plugin's answer is longer than ${LIMIT} characters`, timedOut: false });
  });

  it('refuses a host operation with a longer argument before it reaches the gateway thread', async () => {
    const asked: string[] = [];
    const host: HostHandler = (op, arg) => {
      asked.push(`${op}:${arg.length}`);
      return Promise.resolve('{"Code":200,"Body":"fetched"}');
    };
    expect(body(await call('fetch', 100, host))).toBe('{"Code":200,"Body":"fetched"}');
    expect(body(await call('fetch', 2 * LIMIT, host))).toBe('undefined');
    expect(asked).toHaveLength(1);
  });

  it('cuts a log line to LOG_MESSAGE_CHARS', async () => {
    const lines: { op: HostOp; length: number }[] = [];
    const host: HostHandler = (op, arg) => {
      lines.push({ op, length: arg.length });
      return undefined;
    };
    expect(body(await call('logs', 0, host))).toBe('logged');
    expect(lines).toEqual([
      { op: 'log', length: LOG_MESSAGE_CHARS + 1 },
      { op: 'rawlog', length: LOG_MESSAGE_CHARS + 1 },
    ]);
  });
});
