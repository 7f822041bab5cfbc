// A plugin call's message made in parts (call-json.ts, mini-request.ts miniRequestJson) is the very string
// JSON.stringify makes of the whole call object, for requests with and without a body, query parameters, repeated
// and oddly written headers, TLS, sessions and specs of every shape; and a step built for a changed spec (a reload
// changing config_data) sends the new spec.
import { describe, expect, it } from 'vitest';
import type { ProxyContext } from '../pipeline/contract.ts';
import { argJson, CallJson, NO_SESSION_JSON } from './call-json.ts';
import { miniRequest, miniRequestJson } from './mini-request.ts';
import type { PluginPool } from './plugin-pool.ts';
import { requestHook } from './request-hook.ts';

interface RequestShape {
  rawHeaders?: string[];
  url?: string | undefined;
  method?: string;
  path?: string;
  query?: string;
  encrypted?: boolean;
}

function context(shape: RequestShape = {}): ProxyContext {
  const path = shape.path ?? '/api/items';
  const query = shape.query ?? '';
  const req = {
    headers: {},
    rawHeaders: shape.rawHeaders ?? ['Host', 'gw.example', 'User-Agent', 'loadgen', 'Accept', '*/*'],
    url: 'url' in shape ? shape.url : path + query,
    socket: shape.encrypted ? { encrypted: true } : {},
  };
  return { req, method: shape.method ?? 'GET', path, query } as unknown as ProxyContext;
}

const requests: [string, RequestShape, Buffer | undefined][] = [
  ['a GET without a body', {}, undefined],
  ['an empty body', { method: 'POST' }, Buffer.alloc(0)],
  ['a JSON body', { method: 'POST' }, Buffer.from('{"name":"gw","tags":["a","b"]}')],
  ['a binary body', { method: 'PUT' }, Buffer.from([0, 255, 128, 10, 34, 92])],
  ['query parameters, repeated and escaped', { query: '?a=1&a=2&b=%22q%22&c=%E2%9C%93&empty=&flag' }, undefined],
  [
    'repeated headers, names in any case, quotes and backslashes in values',
    { rawHeaders: ['x-custom', 'one', 'X-CUSTOM', 'two', 'X-Quoted', 'say "hi" \\ there', 'x-tab', 'a\tb', 'Content-Type', 'text/plain; charset=utf-8'] },
    Buffer.from('plain text ✓'),
  ],
  ['no headers at all, over TLS, a DELETE', { rawHeaders: [], encrypted: true, method: 'DELETE' }, undefined],
  ['no request URL (the path and query stand for it)', { url: undefined, query: '?x=y' }, undefined],
  ['a latin-1 path and query', { path: '/caf\u00e9', query: '?q=\u00fc' }, undefined],
];

const specs: Record<string, unknown>[] = [
  { OrgID: 'org1', APIID: 'api1' },
  { OrgID: 'org1', APIID: 'api1', config_data: { greeting: 'hello', nested: { list: [1, 2.5, null, true], text: 'a "quoted" \\ line\n' } } },
  { OrgID: '', APIID: 'x', config_data: {} },
];

const sessions: unknown[] = [
  {},
  { meta_data: { tier: 'gold', unicode: 'ü✓' }, rate: 10, per: 1, access_rights: { api1: { api_id: 'api1', versions: ['Default'] } } },
];

describe('a plugin call message made in parts', () => {
  describe.each(requests)('%s', (_name, shape, body) => {
    it('the request is the MiniRequest object serialized', () => {
      const ctx = context(shape);
      expect(miniRequestJson(ctx, body)).toBe(JSON.stringify(miniRequest(ctx, body)));
      expect(JSON.parse(miniRequestJson(ctx, body))).toEqual(miniRequest(ctx, body));
    });

    it('a middleware or virtual endpoint call is the call object serialized', () => {
      const ctx = context(shape);
      for (const spec of specs) {
        for (const session of sessions) {
          for (const kind of ['middleware', 'virtual'] as const) {
            const call = new CallJson(kind, 'myPlugin', spec);
            const whole = JSON.stringify({ kind, name: 'myPlugin', args: [miniRequest(ctx, body), session, spec] });
            expect(call.of(miniRequestJson(ctx, body), argJson(session))).toBe(whole);
          }
        }
      }
    });

    it("a response plugin's call is the call object serialized, its request without a body", () => {
      const ctx = context(shape);
      const response = { StatusCode: 201, Body: 'done "ok"', Headers: { 'Content-Type': ['text/plain'] }, SetHeaders: {}, DeleteHeaders: [] };
      for (const spec of specs) {
        for (const session of sessions) {
          const call = new CallJson('response', 'onResponse', spec);
          const whole = JSON.stringify({
            kind: 'response',
            name: 'onResponse',
            args: [response, { ...miniRequest(ctx, undefined), Body: null }, session, spec],
          });
          expect(call.ofResponse(argJson(response), miniRequestJson(ctx, null), argJson(session))).toBe(whole);
        }
      }
    });
  });

  it('the session of a call without one is {}; an argument without JSON form is null, as in an array', () => {
    expect(NO_SESSION_JSON).toBe(JSON.stringify({}));
    const call = new CallJson('virtual', 'fn', specs[0]!);
    expect(call.of(argJson(undefined), NO_SESSION_JSON)).toBe(JSON.stringify({ kind: 'virtual', name: 'fn', args: [undefined, {}, specs[0]] }));
  });

  it('a name needing escapes is written as JSON writes it', () => {
    const call = new CallJson('middleware', 'odd"name\\', specs[1]!);
    expect(call.of(argJson({ a: 1 }), NO_SESSION_JSON)).toBe(JSON.stringify({ kind: 'middleware', name: 'odd"name\\', args: [{ a: 1 }, {}, specs[1]] }));
  });

  it('a changed spec (config_data edited, a reload builds the step again) gives a new message', () => {
    const ctx = context();
    const before = new CallJson('middleware', 'p', { OrgID: 'o', APIID: 'a', config_data: { greeting: 'hello' } });
    const after = new CallJson('middleware', 'p', { OrgID: 'o', APIID: 'a', config_data: { greeting: 'bonjour' } });
    const request = miniRequestJson(ctx, undefined);
    expect(after.of(request, NO_SESSION_JSON)).not.toBe(before.of(request, NO_SESSION_JSON));
    expect((JSON.parse(after.of(request, NO_SESSION_JSON)) as { args: unknown[] }).args[2]).toEqual({
      OrgID: 'o',
      APIID: 'a',
      config_data: { greeting: 'bonjour' },
    });
    // The same spec again: the same message.
    expect(new CallJson('middleware', 'p', { OrgID: 'o', APIID: 'a', config_data: { greeting: 'hello' } }).of(request, NO_SESSION_JSON)).toBe(
      before.of(request, NO_SESSION_JSON),
    );
  });

  it("a pre hook step sends its plugin's name and its API's spec, the new spec once built again for a changed one", async () => {
    const sent: string[] = [];
    const pool = { call: (_script: unknown, args: string) => (sent.push(args), Promise.resolve({ ok: true, value: '{"Request":{}}' })) };
    const log = { child: () => log, info: () => undefined, error: () => undefined };
    const services = { plugins: pool as unknown as PluginPool, log, config: { hide_generator_header: false, jsvm_max_body_bytes: 1024 } };
    const run = async (configData: unknown) => {
      const plugins = { script: { id: 's', source: '' }, pre: [{ name: 'first' }, { name: 'second' }], postKeyAuth: [], post: [], response: [], configData };
      const spec = { id: 'api1', orgId: 'org1', plugins, listenPath: '/p/', stripListenPath: true };
      const step = requestHook('pre', plugins as never, spec as never, services as never);
      const ctx = context();
      Object.assign(ctx, { api: { spec }, relPath: '/', ignored: false });
      expect(await step(ctx)).toBe(false);
      return JSON.stringify(miniRequest(ctx, undefined));
    };
    const request = await run({ greeting: 'hello' });
    await run({ greeting: 'bonjour' });
    const spec = (greeting: string) => ({ OrgID: 'org1', APIID: 'api1', config_data: { greeting } });
    expect(sent).toEqual([
      JSON.stringify({ kind: 'middleware', name: 'first', args: [JSON.parse(request), {}, spec('hello')] }),
      JSON.stringify({ kind: 'middleware', name: 'second', args: [JSON.parse(request), {}, spec('hello')] }),
      JSON.stringify({ kind: 'middleware', name: 'first', args: [JSON.parse(request), {}, spec('bonjour')] }),
      JSON.stringify({ kind: 'middleware', name: 'second', args: [JSON.parse(request), {}, spec('bonjour')] }),
    ]);
  });
});
