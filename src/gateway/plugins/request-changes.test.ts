// What a request plugin's DoProcessRequest hands back (js-api.ts): of its request, only the fields the gateway applies
// (mini-request.ts applyRequest) and the plugin changed. Each case runs Tyk's JavaScript API in a real node:vm context
// on the message the gateway sends (call-json.ts), checks what the answer holds, and applies it to a request next to
// the whole request as returned (what DoProcessRequest answered before): both leave the request the same.
import { createContext, runInContext, type Context } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ProxyContext } from '../pipeline/contract.ts';
import { CallJson, NO_SESSION_JSON } from './call-json.ts';
import { JS_API_SOURCE } from './js-api.ts';
import { applyRequest, miniRequestJson } from './mini-request.ts';
import { parseReturn } from './request-hook.ts';

const RAW_HEADERS = ['Host', 'gw.example', 'X-Drop', 'gone', 'X-Keep', 'kept'];

function request(body: Buffer | undefined, query = '?a=1&b=2'): ProxyContext {
  const headers: Record<string, string> = {};
  for (let i = 0; i < RAW_HEADERS.length; i += 2) headers[RAW_HEADERS[i]!.toLowerCase()] = RAW_HEADERS[i + 1]!;
  const req = { headers, rawHeaders: RAW_HEADERS, url: `/api/items${query}`, socket: {} };
  const api = { spec: { listenPath: '/api', stripListenPath: true } };
  return { req, api, method: 'POST', path: '/api/items', relPath: '/items', query, body } as unknown as ProxyContext;
}

interface Outcome {
  /** The answer as sent: the fields of Request and the object's other keys. */
  sent: Record<string, unknown> & { Request: Record<string, unknown> };
  /** What the gateway did with it, and what it did with the whole request (the answer before). */
  applied: unknown;
  appliedWhole: unknown;
}

/** Runs `code` as a pre plugin's body (it returns with `done(...)`) on a request with `body`. */
function runPlugin(code: string, body?: Buffer, query?: string): Outcome {
  const context: Context = createContext({ __gwHost: () => undefined });
  runInContext(JS_API_SOURCE, context);
  runInContext(
    `var mw = new TykJS.TykMiddleware.NewMiddleware({});
     function done(value) { globalThis.returned = value; return value; }
     mw.NewProcessRequest(function (request, session, config) { ${code} });`,
    context,
  );
  context.__gwArgs = new CallJson('middleware', 'mw', { OrgID: 'o', APIID: 'a' }).of(miniRequestJson(request(body, query), body), NO_SESSION_JSON);
  const out = runInContext('__gwCall()', context) as string;
  expect(out[0]).toBe('R');
  // The object DoProcessRequest returned from, as it left it (Headers cleared, Body encoded): what it answered before.
  const whole = runInContext('JSON.stringify(globalThis.returned)', context) as string;
  return { sent: JSON.parse(out.slice(1)) as Outcome['sent'], applied: apply(out.slice(1), body, query), appliedWhole: apply(whole, body, query) };
}

function apply(answer: string, body: Buffer | undefined, query: string | undefined) {
  const ctx = request(body, query);
  const returned = parseReturn(answer)!;
  const applied = applyRequest(ctx, returned.Request, (ctx.body?.length ?? 0) > 0);
  return { applied, headers: ctx.req.headers, body: ctx.body?.toString('base64'), upstreamPath: ctx.upstreamPath, method: ctx.method };
}

const ret = 'return done(mw.ReturnData(request, {}));';

describe('the request changes a plugin hands back', () => {
  it('an untouched request sends no field of it', () => {
    const outcome = runPlugin(ret, Buffer.from('a body'));
    expect(outcome.sent).toEqual({ Request: {}, SessionMeta: {} });
    expect(outcome.applied).toEqual(outcome.appliedWhole);
    expect(outcome.applied).toMatchObject({ applied: { kind: 'continue' }, body: Buffer.from('a body').toString('base64') });
  });

  it('headers set and deleted', () => {
    const outcome = runPlugin(`request.SetHeaders['X-New'] = 'v'; request.DeleteHeaders.push('X-Drop'); ${ret}`);
    expect(outcome.sent.Request).toEqual({ SetHeaders: { 'X-New': 'v' }, DeleteHeaders: ['X-Drop'] });
    expect(outcome.applied).toEqual(outcome.appliedWhole);
    expect(outcome.applied).toMatchObject({ headers: { host: 'gw.example', 'x-keep': 'kept', 'x-new': 'v' } });
  });

  it('a body replaced, emptied, or given to a request without one', () => {
    const replaced = runPlugin(`request.Body = 'new ✓'; ${ret}`, Buffer.from('old'));
    expect(replaced.sent.Request).toEqual({ Body: Buffer.from('new ✓').toString('base64') });
    expect(replaced.applied).toEqual(replaced.appliedWhole);
    const emptied = runPlugin(`request.Body = ''; ${ret}`, Buffer.from('old'));
    expect(emptied.sent.Request).toEqual({ Body: '' });
    expect(emptied.applied).toEqual(emptied.appliedWhole);
    expect(emptied.applied).toMatchObject({ body: '' });
    const given = runPlugin(`request.Body = 'made'; ${ret}`);
    expect(given.sent.Request).toEqual({ Body: Buffer.from('made').toString('base64') });
    expect(given.applied).toEqual(given.appliedWhole);
  });

  it('a body read and left as it was is not sent; one the JS API cannot carry unchanged (not UTF-8) is, as before', () => {
    const read = runPlugin(`request.SetHeaders.Len = String(request.Body.length); ${ret}`, Buffer.from('{"a":"ü"}'));
    expect(read.sent.Request).toEqual({ SetHeaders: { Len: '9' } });
    expect(read.applied).toEqual(read.appliedWhole);
    const binary = runPlugin(ret, Buffer.from([0xff, 0xfe, 0x41]));
    expect(binary.sent.Request).toHaveProperty('Body');
    expect(binary.applied).toEqual(binary.appliedWhole);
  });

  it('IgnoreBody keeps the body as it came: a changed body is not sent', () => {
    const outcome = runPlugin(`request.Body = 'changed'; request.IgnoreBody = true; ${ret}`, Buffer.from('original'));
    expect(outcome.sent.Request).toEqual({});
    expect(outcome.applied).toEqual(outcome.appliedWhole);
    expect(outcome.applied).toMatchObject({ body: Buffer.from('original').toString('base64') });
  });

  it('the URL (path and query) rewritten; an empty URL changes nothing', () => {
    const outcome = runPlugin(`request.URL = '/api/other?x=1'; ${ret}`);
    expect(outcome.sent.Request).toEqual({ URL: '/api/other?x=1' });
    expect(outcome.applied).toEqual(outcome.appliedWhole);
    expect(outcome.applied).toMatchObject({ upstreamPath: '/other?x=1' });
    const empty = runPlugin(`request.URL = ''; ${ret}`);
    expect(empty.sent.Request).toEqual({});
    expect(empty.applied).toEqual(empty.appliedWhole);
  });

  it('query parameters added and deleted', () => {
    const outcome = runPlugin(`request.AddParams.c = '3'; request.AddParams.a = 'one'; request.DeleteParams.push('b'); ${ret}`);
    expect(outcome.sent.Request).toEqual({ AddParams: { c: '3', a: 'one' }, DeleteParams: ['b'] });
    expect(outcome.applied).toEqual(outcome.appliedWhole);
    expect(outcome.applied).toMatchObject({ upstreamPath: '/items?a=one&c=3' });
  });

  it('a changed Method is not sent: the gateway never applied it (nor does Tyk)', () => {
    const outcome = runPlugin(`request.Method = 'DELETE'; ${ret}`);
    expect(outcome.sent.Request).toEqual({});
    expect(outcome.applied).toEqual(outcome.appliedWhole);
    expect(outcome.applied).toMatchObject({ method: 'POST' });
  });

  it('ReturnOverrides: an error, a response with its headers and body; without a status nothing is sent', () => {
    const error = runPlugin(`request.ReturnOverrides.ResponseCode = 403; request.ReturnOverrides.ResponseError = 'no'; ${ret}`);
    expect(error.sent.Request).toEqual({
      ReturnOverrides: { ResponseCode: 403, ResponseError: 'no', ResponseBody: '', ResponseHeaders: {}, OverrideError: false },
    });
    expect(error.applied).toEqual(error.appliedWhole);
    expect(error.applied).toMatchObject({ applied: { kind: 'error', status: 403, message: 'no' } });
    const answer = runPlugin(`var o = request.ReturnOverrides; o.ResponseCode = 200; o.ResponseBody = 'hi'; o.ResponseHeaders = { 'X-R': '1' }; ${ret}`);
    expect(answer.sent.Request).toHaveProperty('ReturnOverrides');
    expect(answer.applied).toEqual(answer.appliedWhole);
    expect(answer.applied).toMatchObject({ applied: { kind: 'respond', status: 200, body: 'hi', headers: { 'X-R': '1' } } });
    const overridden = runPlugin(`var o = request.ReturnOverrides; o.ResponseCode = 418; o.OverrideError = true; o.ResponseBody = 'tea'; ${ret}`);
    expect(overridden.applied).toEqual(overridden.appliedWhole);
    expect(overridden.applied).toMatchObject({ applied: { kind: 'respond', status: 418, body: 'tea' } });
    const noStatus = runPlugin(`request.ReturnOverrides.ResponseBody = 'unused'; request.ReturnOverrides.ResponseHeaders.A = 'b'; ${ret}`);
    expect(noStatus.sent.Request).toEqual({});
    expect(noStatus.applied).toEqual(noStatus.appliedWhole);
  });

  it('fields the gateway never reads are not sent', () => {
    const outcome = runPlugin(
      `request.Headers.X = ['y']; request.Params.z = ['1']; request.ExtendedParams.e = ['2']; request.RequestURI = '/else'; request.Scheme = 'https'; request.Extra = 1; ${ret}`,
    );
    expect(outcome.sent.Request).toEqual({});
    expect(outcome.applied).toEqual(outcome.appliedWhole);
  });

  it("a request object of the plugin's own, ReturnAuthData's session and AuthValue, other keys of the answer", () => {
    const own = runPlugin(`return done(mw.ReturnData({ SetHeaders: { A: 'b' } }, { m: 1 }));`, Buffer.from('body'));
    expect(own.sent).toEqual({ Request: { SetHeaders: { A: 'b' }, Body: '' }, SessionMeta: { m: 1 } });
    expect(own.applied).toEqual(own.appliedWhole);
    const auth = runPlugin(`var r = mw.ReturnAuthData(request, { rate: 5 }); r.AuthValue = 'key1'; r.Other = 2; return done(r);`);
    expect(auth.sent).toEqual({ Request: {}, Session: { rate: 5 }, AuthValue: 'key1' });
  });

  it('what JSON does not write as an object of its own properties is answered whole, as before', () => {
    const array = runPlugin(`var list = []; list.SetHeaders = { A: 'b' }; return done({ Request: list });`);
    expect(array.sent).toEqual({ Request: [] });
    expect(array.applied).toEqual(array.appliedWhole);
    const custom = runPlugin(`request.toJSON = function () { return { SetHeaders: { Via: 'toJSON' } }; }; ${ret}`);
    expect(custom.sent.Request).toEqual({ SetHeaders: { Via: 'toJSON' } });
    expect(custom.applied).toEqual(custom.appliedWhole);
    const inherited = runPlugin(`var r = Object.create({ URL: '/api/elsewhere' }); r.SetHeaders = {}; return done({ Request: r });`);
    expect(inherited.sent.Request).toEqual({});
    expect(inherited.applied).toEqual(inherited.appliedWhole);
  });
});
