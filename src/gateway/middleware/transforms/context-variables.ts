// The request's context variables as Tyk exposes them to templates (mw_context_vars.go), built only for
// an API that enables them and only when a step needs them: request_data (the query, name -> values) and
// request_data_<name> (its first value), headers (canonical name -> values) and headers_<Canonical_Name> (first
// value, dashes as underscores; headers_Host too), cookies_<name> (as sent, the last of a name sent twice), path, path_parts (the path split on '/', so
// index 0 is ''), remote_addr, request_id (a fresh UUID) and, once authenticated, token. It never includes the
// request body, and never logs.
import { randomUUID } from 'node:crypto';
import { canonicalHeaderName } from '../../../domain/header-rules.ts';
import { parseCookieHeader } from '../../../http/cookie-header.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';

export function contextVariables(ctx: ProxyContext): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  const requestData: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(ctx.query)) (requestData[name] ??= []).push(value);
  vars.request_data = requestData;
  for (const name in requestData) vars[`request_data_${name}`] = requestData[name]![0];

  const headers: Record<string, string[]> = {};
  const raw = ctx.req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = canonicalHeaderName(raw[i]!.toLowerCase());
    if (name === 'Host') continue; // Go keeps Host out of the header map
    (headers[name] ??= []).push(raw[i + 1]!);
  }
  vars.headers = headers;
  for (const name in headers) vars[`headers_${name.replaceAll('-', '_')}`] = headers[name]![0];
  vars.headers_Host = ctx.req.headers.host ?? '';

  const cookies = parseCookieHeader(ctx.req.headers.cookie, { duplicates: 'last' });
  for (const name in cookies) vars[`cookies_${name}`] = cookies[name];
  vars.path = ctx.path;
  vars.path_parts = ctx.path.split('/');
  vars.remote_addr = ctx.req.socket.remoteAddress ?? '';
  vars.request_id = randomUUID();
  if (ctx.token !== undefined) vars.token = ctx.token;
  return vars;
}
