// The coprocess Object's parts built from a request, as Tyk Gateway builds them (gateway/coprocess.go): headers and
// params with their first value (and Host), url, method, request_uri, scheme, raw_body, `body` only when the body is
// UTF-8 and the hook is not raw_body_only, return_overrides.response_code -1; the spec map {OrgID, APIID,
// config_data (JSON)}; the session in coprocess.SessionState's form. What a plugin returns is applied through the
// JavaScript plugins' rules (mini-request.ts applyRequest): the body from raw_body, delete_headers, set_headers,
// delete_params, add_params, the url, then return_overrides.
import { TextDecoder } from 'node:util';
import type { Session } from '../../../domain/session.ts';
import type { ApiSpec } from '../../definition/api-spec.ts';
import type { GrpcHook, GrpcPluginsSpec } from '../../definition/plugin-types.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';
import { applyRequest, queryParams, requestHeaders, requestUrl, type Applied } from '../mini-request.ts';
import type { CoprocessSession, MiniRequestObject } from './coprocess-messages.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Tyk answers a plugin's error override with an empty body with this message. */
export const KEY_NOT_AUTHORISED = 'Key not authorised';

export function coprocessRequest(ctx: ProxyContext, hook: GrpcHook): MiniRequestObject {
  const body = ctx.body ?? Buffer.alloc(0);
  const headers = firstValues(requestHeaders(ctx));
  if (headers.Host === undefined && ctx.req.headers.host) headers.Host = ctx.req.headers.host;
  return {
    headers,
    body: hook.rawBodyOnly ? '' : (utf8Text(body) ?? ''),
    raw_body: body,
    url: requestUrl(ctx),
    params: firstValues(queryParams(ctx.query)),
    return_overrides: { response_code: -1 },
    method: ctx.method,
    request_uri: ctx.req.url ?? requestUrl(ctx),
    scheme: (ctx.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
  };
}

export function coprocessSpec(spec: ApiSpec, plugins: GrpcPluginsSpec): Record<string, string> {
  return {
    OrgID: spec.orgId,
    APIID: spec.id,
    ...(plugins.configData !== undefined ? { config_data: JSON.stringify(plugins.configData) } : {}),
  };
}

/** A key's session as coprocess.SessionState (the fields a plugin reads: limits, rights, meta data). */
export function coprocessSession(session: Session): CoprocessSession {
  return {
    rate: session.rate ?? 0,
    per: session.per ?? 0,
    expires: session.expires ?? 0,
    quota_max: session.quota_max ?? 0,
    quota_renewal_rate: session.quota_renewal_rate ?? 0,
    quota_remaining: session.quota_remaining ?? 0,
    org_id: session.org_id ?? '',
    is_inactive: session.is_inactive ?? false,
    apply_policies: session.apply_policies ?? [],
    tags: session.tags ?? [],
    alias: session.alias ?? '',
    metadata: Object.fromEntries(
      Object.entries(session.meta_data ?? {}).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
    ),
    access_rights: Object.fromEntries(
      Object.entries(session.access_rights ?? {}).map(([id, rights]) => [
        id,
        { api_id: rights.api_id ?? id, api_name: rights.api_name ?? '', versions: rights.versions ?? [] },
      ]),
    ),
  };
}

/** Applies a returned request, Tyk's way: the body is always replaced from raw_body (a plugin echoes it). */
export function applyCoprocessRequest(ctx: ProxyContext, returned: MiniRequestObject): Applied {
  const overrides = returned.return_overrides ?? {};
  const applied = applyRequest(
    ctx,
    {
      Body: (returned.raw_body ?? Buffer.alloc(0)).toString('base64'),
      URL: returned.url ?? '',
      DeleteHeaders: returned.delete_headers ?? [],
      SetHeaders: returned.set_headers ?? {},
      DeleteParams: returned.delete_params ?? [],
      AddParams: returned.add_params ?? {},
      ReturnOverrides: {
        ResponseCode: overrides.response_code ?? 0,
        ResponseError: overrides.response_error ?? '',
        ResponseBody: overrides.response_body ?? '',
        ResponseHeaders: overrides.headers ?? {},
        OverrideError: overrides.override_error ?? false,
      },
    },
    (ctx.body?.length ?? 0) > 0,
  );
  if (applied.kind === 'error' && applied.message === '') return { ...applied, message: KEY_NOT_AUTHORISED };
  return applied;
}

function firstValues(values: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, list]) => [name, list[0] ?? '']));
}

function utf8Text(body: Buffer): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}
