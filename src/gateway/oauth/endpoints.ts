// The OAuth 2.0 endpoints Tyk Gateway serves under a use_oauth2 API's listen path (server.go addOAuthHandlers),
// answered by the gateway before any other step (no version, authentication or limits apply to them):
//   GET|POST /oauth/authorize            checks client_id, redirect_uri (one the client registered, split by
//                                        oauth_redirect_uri_separator; empty: the first) and response_type (oauth_meta.allowed_authorize_types), then 307 to
//                                        oauth_meta.auth_login_redirect (GET: with the request's query); an error is
//                                        {"status":"error","message":...} with oauth_error_status_code.
//   POST /tyk/oauth/authorize-client     what the login page calls once the user agreed, with the gateway's secret
//                                        (x-gw-authorization, or Tyk's x-tyk-authorization): response_type `code`
//                                        answers {code, redirect_to}, `token` (implicit) {access_token, ..., redirect_to}.
//   GET|POST /oauth/token                the grants (grants.ts); form or flat JSON body; osin's JSON answer, or
//                                        {"error","error_description"} with oauth_error_status_code; no-store headers.
//   any /oauth/revoke                    form `token`, `token_type_hint` (access_token | refresh_token | else both):
//                                        revokes this API's OAuth token; 200 {"status":"ok","message":"token revoked successfully"}.
// Bodies are read up to 64 KiB (413 beyond). Trailing slashes are accepted, as Tyk's router does.
import { randomBytes } from 'node:crypto';
import { managementSecretCheck } from '../admin/management-secret.ts';
import type { ApiSpec, OAuthSpec } from '../definition/api-spec.ts';
import type { ProxyContext, ResponseHead, Step } from '../pipeline/contract.ts';
import { GENERATOR } from '../pipeline/error-reply.ts';
import { withRequestBody } from '../pipeline/request-body.ts';
import { respond } from '../pipeline/response-phase.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { storageIdOf } from '../session/keys.ts';
import { OAuthErrors, runGrant, type GrantContext, type OAuthErrorCode } from './grants.ts';
import { OAuthRecords, type OAuthClient } from './records.ts';
import { issueToken, revokeStoredAccess } from './tokens.ts';
import type { StepDescriptor } from '../pipeline/step.ts';

const MAX_FORM_BYTES = 64 * 1024;
/** osin's default lifetime of an authorization code. */
const CODE_LIFETIME_MS = 250_000;
const UNAUTHORISED = 'Attempted administrative access with invalid or missing key!';

/** Tyk's token endpoint headers (TestTokenEndpointHeaders). */
const TOKEN_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'cache-control': 'no-cache, no-store, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
};

type Endpoint = 'authorize' | 'authorize-client' | 'token' | 'revoke';

const ENDPOINTS: Record<string, Endpoint> = {
  '/oauth/authorize': 'authorize',
  '/tyk/oauth/authorize-client': 'authorize-client',
  '/oauth/token': 'token',
  '/oauth/revoke': 'revoke',
};

export function oauthEndpoints(spec: ApiSpec, oauth: OAuthSpec, services: PipelineServices): Step {
  const records = new OAuthRecords(services.store);
  const presentsSecret = managementSecretCheck(services.config.secret);
  const hideGenerator = services.config.hide_generator_header;
  const errorStatus = services.config.oauth_error_status_code;
  const reply = (ctx: ProxyContext, status: number, body: unknown, extra: Record<string, string> = {}): true => {
    const text = `${JSON.stringify(body)}\n`;
    const headers: ResponseHead['headers'] = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extra };
    if (!hideGenerator) headers['x-generator'] = GENERATOR;
    respond(ctx.res, { status, headers, origin: status < 400 ? 'mock' : 'error' }, text);
    return true;
  };
  const grantContext = (ctx: ProxyContext): GrantContext => ({ apiId: spec.id, orgId: spec.orgId, oauth, records, services, req: ctx.req });

  /** The client and redirect URI of an authorization request, or the osin error that refuses it. */
  const checkAuthorization = async (form: URLSearchParams): Promise<{ client: OAuthClient; redirect: string; type: 'code' | 'token' } | OAuthErrorCode> => {
    const id = form.get('client_id') ?? '';
    const client = id ? await records.getClient(spec.id, id) : undefined;
    if (!client) return 'unauthorized_client';
    const separator = services.config.oauth_redirect_uri_separator;
    const registered = (separator ? client.redirect_uri.split(separator) : [client.redirect_uri]).filter((uri) => uri !== '');
    const redirect = form.get('redirect_uri') || registered[0] || '';
    if (!registered.includes(redirect)) return 'invalid_request';
    const type = form.get('response_type') ?? '';
    if (!(oauth.allowedAuthorizeTypes as string[]).includes(type)) return 'unsupported_response_type';
    return { client, redirect, type: type as 'code' | 'token' };
  };

  const authorize = async (ctx: ProxyContext, form: URLSearchParams): Promise<boolean> => {
    const checked = await checkAuthorization(form);
    if (typeof checked === 'string') return reply(ctx, errorStatus, { status: 'error', message: OAuthErrors[checked] });
    if (!oauth.authLoginRedirect) return reply(ctx, errorStatus, { status: 'error', message: OAuthErrors.server_error });
    const location = ctx.method === 'GET' && ctx.query ? `${oauth.authLoginRedirect}${ctx.query}` : oauth.authLoginRedirect;
    return reply(ctx, 307, { status: 'ok', message: 'redirecting to the login page' }, { location });
  };

  const authorizeClient = async (ctx: ProxyContext, form: URLSearchParams): Promise<boolean> => {
    if (ctx.method !== 'POST') return reply(ctx, 405, { status: 'error', message: 'Method not supported' });
    if (!presentsSecret(ctx.req.headers)) return reply(ctx, 403, { status: 'error', message: UNAUTHORISED });
    const checked = await checkAuthorization(form);
    if (typeof checked === 'string') return reply(ctx, errorStatus, { error: checked, error_description: OAuthErrors[checked] });
    const state = form.get('state') ?? '';
    const withState = (params: Record<string, string>): URLSearchParams => new URLSearchParams({ ...params, ...(state ? { state } : {}) });
    if (checked.type === 'code') {
      const method = form.get('code_challenge_method') || 'plain';
      if (method !== 'plain' && method !== 'S256') return reply(ctx, errorStatus, { error: 'invalid_request', error_description: OAuthErrors.invalid_request });
      const challenge = form.get('code_challenge') ?? '';
      const code = randomBytes(24).toString('base64url');
      await records.putCode(spec.id, code, {
        client_id: checked.client.client_id,
        redirect_uri: checked.redirect,
        expires_at: services.now() + CODE_LIFETIME_MS,
        ...(challenge ? { code_challenge: challenge, code_challenge_method: method } : {}),
      });
      return reply(ctx, 200, { code, ...(state ? { state } : {}), redirect_to: `${checked.redirect}?${withState({ code }).toString()}` });
    }
    const token = await issueToken({ apiId: spec.id, orgId: spec.orgId, client: checked.client, withRefresh: false }, oauth, records, services);
    const fragment = withState({ access_token: token.access_token, token_type: token.token_type, expires_in: String(token.expires_in) });
    return reply(ctx, 200, { ...token, ...(state ? { state } : {}), redirect_to: `${checked.redirect}#${fragment.toString()}` });
  };

  const token = async (ctx: ProxyContext, form: URLSearchParams): Promise<boolean> => {
    const result = await runGrant(grantContext(ctx), form);
    if (!result.ok) return reply(ctx, errorStatus, { error: result.error, error_description: OAuthErrors[result.error] }, TOKEN_HEADERS);
    return reply(ctx, 200, result.token, TOKEN_HEADERS);
  };

  const revoke = async (ctx: ProxyContext, form: URLSearchParams): Promise<boolean> => {
    const presented = form.get('token') ?? '';
    if (!presented) return reply(ctx, 400, { status: 'error', message: 'token is required' });
    const hint = form.get('token_type_hint');
    if (hint !== 'refresh_token') {
      // Only an OAuth token of this API: the endpoint must never delete another key.
      const storageId = storageIdOf(presented, services.config.hash_keys);
      const session = await services.store.getKey(storageId);
      if (session?.oauth_client_id && (await records.getClient(spec.id, session.oauth_client_id))) await revokeStoredAccess(storageId, services);
    }
    if (hint !== 'access_token') await records.deleteRefresh(spec.id, presented);
    return reply(ctx, 200, { status: 'ok', message: 'token revoked successfully' });
  };

  const handlers: Record<Endpoint, (ctx: ProxyContext, form: URLSearchParams) => Promise<boolean>> = {
    authorize,
    'authorize-client': authorizeClient,
    token,
    revoke,
  };

  return (ctx) => {
    const path = ctx.relPath.length > 1 && ctx.relPath.endsWith('/') ? ctx.relPath.slice(0, -1) : ctx.relPath;
    const endpoint = ENDPOINTS[path];
    if (endpoint === undefined) return false;
    if ((endpoint === 'authorize' || endpoint === 'token') && ctx.method !== 'GET' && ctx.method !== 'POST')
      return reply(ctx, 405, { status: 'error', message: 'Method not supported' });
    return withRequestBody(ctx, MAX_FORM_BYTES, hideGenerator, async (body) => {
      const form = formOf(ctx, body);
      if (!form) return reply(ctx, 400, { status: 'error', message: 'error parsing form. Form malformed' });
      try {
        return await handlers[endpoint](ctx, form);
      } catch (error) {
        services.log.error({ api_id: spec.id, endpoint, err: (error as Error).message }, 'OAuth endpoint failed');
        return reply(ctx, 500, { error: 'server_error', error_description: OAuthErrors.server_error });
      }
    });
  };
}

/**
 * The request's parameters: the query, then the body's (urlencoded, or a flat JSON object of strings as Tyk
 * accepts on the token endpoint); undefined when the JSON body is not such an object.
 */
function formOf(ctx: ProxyContext, body: Buffer): URLSearchParams | undefined {
  const form = new URLSearchParams(ctx.query.startsWith('?') ? ctx.query.slice(1) : ctx.query);
  if (body.length === 0) return form;
  const type = ctx.req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') return undefined;
      form.set(name, value);
    }
    return form;
  }
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) form.set(name, value);
  return form;
}

/** use_oauth2: the API's /oauth/ endpoints (authorize, token, revoke) answer before anything else of the API. */
export const oauthEndpointsStep: StepDescriptor = {
  name: 'oauth-endpoints',
  enabledFor: (api) => api.oauth !== undefined,
  build: (api, services) => ({ request: oauthEndpoints(api, api.oauth!, services) }),
};
