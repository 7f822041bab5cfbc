// Tyk's request object for JavaScript plugins (its MiniRequestObject, keys as Tyk's Go names) built from a
// request, and what the gateway does with the object a plugin returns, in Tyk Gateway's order: the body (unless
// IgnoreBody), the URL, DeleteHeaders then SetHeaders (edits of Headers itself are ignored, as in Tyk),
// DeleteParams then AddParams, and ReturnOverrides: a ResponseCode >= 400 without OverrideError is an error
// answered `{"error": ResponseBody}` (ResponseError wins when set), any other non-zero code is written as given.
// The returned request holds only the fields a plugin changed (js-api.ts DoProcessRequest): a field left out is as sent.
import type { ProxyContext } from '../pipeline/contract.ts';

export interface ReturnOverrides {
  ResponseCode?: number;
  ResponseError?: string;
  ResponseBody?: string;
  ResponseHeaders?: Record<string, string>;
  OverrideError?: boolean;
}

export interface MiniRequest {
  Headers: Record<string, string[]>;
  SetHeaders: Record<string, string>;
  DeleteHeaders: string[];
  Body: string;
  URL: string;
  Params: Record<string, string[]>;
  AddParams: Record<string, string>;
  ExtendedParams: Record<string, string[]>;
  DeleteParams: string[];
  ReturnOverrides: ReturnOverrides;
  IgnoreBody: boolean;
  Method: string;
  RequestURI: string;
  Scheme: string;
}

/** What to do after a plugin returned: go on, or answer (an error through Tyk's template, or a response as given). */
export type Applied =
  | { kind: 'continue' }
  | { kind: 'error'; status: number; message: string; headers: Record<string, string> }
  | { kind: 'respond'; status: number; body: string; headers: Record<string, string> };

/** Canonical header names already made, by name as received; at most CANONICAL_NAMES_KEPT (clients choose names). */
const canonicalNames = new Map<string, string>();
const CANONICAL_NAMES_KEPT = 512;

/** Go's canonical header name (x-api-key -> X-Api-Key), as Tyk's plugins see header names. */
export function canonicalHeader(name: string): string {
  let canonical = canonicalNames.get(name);
  if (canonical === undefined) {
    canonical = name.toLowerCase().replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
    if (canonicalNames.size < CANONICAL_NAMES_KEPT) canonicalNames.set(name, canonical);
  }
  return canonical;
}

export function requestHeaders(ctx: ProxyContext): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  const raw = ctx.req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = canonicalHeader(raw[i]!);
    (headers[name] ??= []).push(raw[i + 1]!);
  }
  return headers;
}

export function queryParams(query: string): Record<string, string[]> {
  const params: Record<string, string[]> = {};
  if (query === '' || query === '?') return params;
  for (const [name, value] of new URLSearchParams(query)) (params[name] ??= []).push(value);
  return params;
}

/** The URL as plugins see it: the path and query as received. */
export function requestUrl(ctx: ProxyContext): string {
  return ctx.path + ctx.query;
}

/**
 * The request object a plugin gets, as an object: the definition of what miniRequestJson writes directly (the gateway
 * sends only that JSON; call-json.test.ts holds the two equal).
 */
export function miniRequest(ctx: ProxyContext, body: Buffer | undefined): MiniRequest {
  const url = requestUrl(ctx);
  return {
    Headers: requestHeaders(ctx),
    SetHeaders: {},
    DeleteHeaders: [],
    Body: body === undefined ? '' : body.toString('base64'),
    URL: url,
    Params: queryParams(ctx.query),
    AddParams: {},
    ExtendedParams: {},
    DeleteParams: [],
    ReturnOverrides: { ResponseCode: 0, ResponseError: '', ResponseBody: '', ResponseHeaders: {}, OverrideError: false },
    IgnoreBody: false,
    Method: ctx.method,
    RequestURI: ctx.req.url ?? url,
    Scheme: (ctx.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
  };
}

// The parts of a MiniRequest's JSON that are the same for every request: its fields at their defaults.
const EDITS_JSON = ',"SetHeaders":{},"DeleteHeaders":[],"Body":';
const DEFAULTS_JSON =
  ',"AddParams":{},"ExtendedParams":{},"DeleteParams":[],"ReturnOverrides":{"ResponseCode":0,"ResponseError":"","ResponseBody":"",' +
  '"ResponseHeaders":{},"OverrideError":false},"IgnoreBody":false,"Method":';

/**
 * JSON.stringify(miniRequest(ctx, body)), the same string (call-json.test.ts), with the fields every request has at
 * their defaults written as constants (about 0.5 µs less per call than serializing the object); `null` as the body
 * writes `"Body":null` (a response plugin's request).
 */
export function miniRequestJson(ctx: ProxyContext, body: Buffer | undefined | null): string {
  const url = requestUrl(ctx);
  const encoded = body === null ? 'null' : JSON.stringify(body === undefined ? '' : body.toString('base64'));
  const scheme = (ctx.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return (
    `{"Headers":${JSON.stringify(requestHeaders(ctx))}${EDITS_JSON}${encoded},"URL":${JSON.stringify(url)},"Params":${JSON.stringify(queryParams(ctx.query))}` +
    `${DEFAULTS_JSON}${JSON.stringify(ctx.method)},"RequestURI":${JSON.stringify(ctx.req.url ?? url)},"Scheme":"${scheme}"}`
  );
}

const CONTINUE: Applied = { kind: 'continue' };

/** Applies the request a plugin returned (`returned` is its Request, body base64 as the JS API encodes it). */
export function applyRequest(ctx: ProxyContext, returned: Partial<MiniRequest>, hadBody: boolean): Applied {
  if (!returned.IgnoreBody && typeof returned.Body === 'string' && (hadBody || returned.Body !== '')) {
    const body = Buffer.from(returned.Body, 'base64');
    if (hadBody || body.length > 0) ctx.body = body;
  }
  applyUrl(ctx, returned);
  for (const name of stringList(returned.DeleteHeaders)) delete ctx.req.headers[name.toLowerCase()];
  for (const [name, value] of Object.entries(stringMap(returned.SetHeaders))) if (validHeader(name, value)) ctx.req.headers[name.toLowerCase()] = value;
  const overrides = returned.ReturnOverrides ?? {};
  const code = typeof overrides.ResponseCode === 'number' ? Math.trunc(overrides.ResponseCode) : 0;
  if (code < 100) return CONTINUE; // the overrides' body and headers answer nothing
  const body = overrides.ResponseError ? String(overrides.ResponseError) : String(overrides.ResponseBody ?? '');
  const headers = Object.fromEntries(Object.entries(stringMap(overrides.ResponseHeaders)).filter(([name, value]) => validHeader(name, value)));
  if (code >= 400 && !overrides.OverrideError) return { kind: 'error', status: Math.min(code, 599), message: body, headers };
  if (code <= 599) return { kind: 'respond', status: code, body, headers };
  return CONTINUE;
}

function applyUrl(ctx: ProxyContext, returned: Partial<MiniRequest>): void {
  const deleted = stringList(returned.DeleteParams);
  const added = stringMap(returned.AddParams);
  const url = typeof returned.URL === 'string' && returned.URL !== '' ? returned.URL : requestUrl(ctx);
  if (url === requestUrl(ctx) && deleted.length === 0 && Object.keys(added).length === 0) return;
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://gateway.invalid');
  } catch {
    return; // Tyk Gateway goes on unchanged when the URL does not parse
  }
  for (const name of deleted) parsed.searchParams.delete(name);
  for (const [name, value] of Object.entries(added)) parsed.searchParams.set(name, value);
  const query = parsed.search;
  const { listenPath, stripListenPath } = ctx.api.spec;
  let path = parsed.pathname;
  if (stripListenPath && listenPath !== '/' && (path === listenPath || path.startsWith(`${listenPath}/`))) path = path.slice(listenPath.length) || '/';
  ctx.upstreamPath = path + query;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [name, item] of Object.entries(value)) if (item !== undefined && item !== null) out[name] = String(item);
  return out;
}

/** A header a plugin sets is sent only when HTTP allows it (a token name, no line breaks): never a split header. */
export function validHeader(name: string, value: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && !/[\r\n\0]/.test(value);
}
