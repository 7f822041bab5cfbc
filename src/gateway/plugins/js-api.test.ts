// Tyk's JavaScript API shim (js-api.ts) in a real node:vm context with a recording host bridge: the middleware
// call contract (DoProcessRequest decodes and re-encodes the body, returns ReturnData's JSON with the request's changes),
// response plugins, TykJsResponse, base64 helpers as Tyk's (padded and raw), the host operations' arguments,
// and that plugin code cannot reach the bridge nor replace the call entry points.
import { createContext, runInContext, type Context } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { JS_API_SOURCE } from './js-api.ts';

function pluginContext(plugin: string, answers: Record<string, string> = {}): { context: Context; calls: [string, string][] } {
  const calls: [string, string][] = [];
  const context = createContext({
    __gwHost: (op: string, arg: string) => {
      calls.push([op, arg]);
      return answers[op];
    },
  });
  runInContext(JS_API_SOURCE, context);
  runInContext(plugin, context);
  return { context, calls };
}

function call(context: Context, job: unknown): string {
  context.__gwArgs = JSON.stringify(job);
  return runInContext('__gwCall()', context) as string;
}

const request = (body: string) => ({
  Headers: { Host: ['example'] },
  SetHeaders: {},
  DeleteHeaders: [],
  Body: Buffer.from(body).toString('base64'),
  URL: '/p',
});

describe("Tyk's JavaScript API", () => {
  it('DoProcessRequest hands the plugin the decoded body and returns ReturnData with the body encoded, without Headers', () => {
    const { context } = pluginContext(`var mw = new TykJS.TykMiddleware.NewMiddleware({});
      mw.NewProcessRequest(function (request, session, config) {
        request.SetHeaders['X-Seen'] = request.Body + '|' + request.Headers.Host[0] + '|' + config.config_data.k;
        request.Body = 'new body';
        return mw.ReturnData(request, { tier: session.meta_data.tier });
      });`);
    const out = call(context, { kind: 'middleware', name: 'mw', args: [request('old body'), { meta_data: { tier: 'gold' } }, { config_data: { k: 'v' } }] });
    expect(out.startsWith('R')).toBe(true);
    const returned = JSON.parse(out.slice(1)) as { Request: { Body: string; Headers: unknown; SetHeaders: Record<string, string> }; SessionMeta: unknown };
    expect(returned.Request.SetHeaders['X-Seen']).toBe('old body|example|v');
    expect(Buffer.from(returned.Request.Body, 'base64').toString()).toBe('new body');
    // Only what changed goes back (request-changes.test.ts): the headers the plugin was given never do.
    expect(returned.Request).not.toHaveProperty('Headers');
    expect(returned.SessionMeta).toEqual({ tier: 'gold' });
  });

  it('a plugin returning nothing is logged as Tyk does and answers no string', () => {
    const { context, calls } = pluginContext(`var mw = new TykJS.TykMiddleware.NewMiddleware({}); mw.NewProcessRequest(function () {});`);
    expect(call(context, { kind: 'middleware', name: 'mw', args: [request(''), {}, {}] })).toBe('U');
    expect(calls).toEqual([['log', "Middleware didn't return request object!"]]);
  });

  it('a throw becomes a description, under the time limit, never the thrown object', () => {
    const { context } = pluginContext(
      `var mw = new TykJS.TykMiddleware.NewMiddleware({}); mw.NewProcessRequest(function () { throw new TypeError('bad input'); });`,
    );
    expect(call(context, { kind: 'middleware', name: 'mw', args: [request(''), {}, {}] })).toBe('Ebad input');
    expect(call(context, { kind: 'middleware', name: 'nobody', args: [request(''), {}, {}] })).toBe('Eno middleware object named nobody');
  });

  it('DoProcessResponse returns ReturnResponseData', () => {
    const { context } = pluginContext(`var r = new TykJS.TykMiddleware.NewMiddleware({});
      r.NewProcessResponse(function (response, request, session, config) { response.SetHeaders.A = String(response.StatusCode); return r.ReturnResponseData(response, {}); });`);
    const out = call(context, {
      kind: 'response',
      name: 'r',
      args: [{ StatusCode: 204, Body: '', Headers: {}, SetHeaders: {}, DeleteHeaders: [] }, {}, {}, {}],
    });
    expect(JSON.parse(out.slice(1))).toEqual({
      Response: { StatusCode: 204, Body: '', Headers: {}, SetHeaders: { A: '204' }, DeleteHeaders: [] },
      SessionMeta: {},
    });
  });

  it('a virtual endpoint function answers with TykJsResponse', () => {
    const { context } = pluginContext(
      `function hi(request, session, config) { return TykJsResponse({ Body: 'hi ' + request.Params.n[0], Code: 200, Headers: { A: 'b' } }, session.meta_data); }`,
    );
    const out = call(context, { kind: 'virtual', name: 'hi', args: [{ Params: { n: ['x'] } }, { meta_data: { m: 1 } }, {}] });
    expect(JSON.parse(out.slice(1))).toEqual({ Response: { Body: 'hi x', Code: 200, Headers: { A: 'b' } }, SessionMeta: { m: 1 } });
  });

  it('b64enc/b64dec are padded, rawb64enc/rawb64dec are not, both UTF-8; undecodable input gives undefined', () => {
    const { context } = pluginContext('');
    const run = (code: string): unknown => runInContext(code, context);
    expect(run("b64enc('héllo?')")).toBe(Buffer.from('héllo?').toString('base64'));
    expect(run("rawb64enc('ab')")).toBe('YWI');
    expect(run("b64dec('aMOpbGxvPw==')")).toBe('héllo?');
    expect(run("rawb64dec('YWI')")).toBe('ab');
    expect(run("b64dec('YWI')")).toBeUndefined();
    expect(run("b64dec('**==')")).toBeUndefined();
  });

  it('host operations get strings: TykMakeHttpRequest its JSON, TykGetKeyData and TykSetKeyData their arguments', () => {
    const { context, calls } = pluginContext('', { http: '{"Code":200}', getkey: '{"meta_data":{}}' });
    expect(runInContext(`TykMakeHttpRequest(JSON.stringify({ Method: 'GET', Domain: 'http://h', Resource: '/r' }))`, context)).toBe('{"Code":200}');
    expect(runInContext(`TykGetKeyData('k1', 'api1')`, context)).toBe('{"meta_data":{}}');
    runInContext(`TykSetKeyData('k1', { meta_data: { a: 1 } }, '1'); rawlog('plain'); TykBatchRequest('{}')`, context);
    expect(calls).toEqual([
      ['http', '{"Method":"GET","Domain":"http://h","Resource":"/r"}'],
      ['getkey', '["k1","api1"]'],
      ['setkey', '["k1","{\\"meta_data\\":{\\"a\\":1}}","1"]'],
      ['rawlog', 'plain'],
      ['batch', '{}'],
    ]);
  });

  it('plugins cannot reach the host bridge, nor replace the call entry points', () => {
    const { context } = pluginContext(`var mw = new TykJS.TykMiddleware.NewMiddleware({});
      mw.NewProcessRequest(function (request) { request.SetHeaders.Bridge = typeof __gwHost; return mw.ReturnData(request, {}); });
      try { __gwCall = function () { return 'Rhijacked'; }; } catch (e) { /* refused: the entry point is read-only */ }
      try { Object.defineProperty(globalThis, '__gwArgs', { get: function () { return '{}'; } }); } catch (e) { /* refused: not configurable */ }`);
    const out = call(context, { kind: 'middleware', name: 'mw', args: [request(''), {}, {}] });
    expect((JSON.parse(out.slice(1)) as { Request: { SetHeaders: Record<string, string> } }).Request.SetHeaders.Bridge).toBe('undefined');
  });
});
