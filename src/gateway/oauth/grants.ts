// The token endpoint's grants, as Tyk Gateway's osin-based server answers them (oauth_manager.go): the client
// authenticates with HTTP Basic `client_id:secret` or the form's client_id / client_secret (the secret compared
// in constant time), the grant type must be in oauth_meta.allowed_access_types, then:
//   client_credentials   a token with the client's policy, no refresh token;
//   authorization_code   the code (spent once: a second exchange is invalid_grant), issued to this client, for the
//                        same redirect_uri, unexpired (250 s, osin's default), with its PKCE code_verifier when the
//                        authorization carried a code_challenge (osin's RFC 7636 support);
//   password             the basic-auth user key `<org_id><username>` and its password (the same check and lock-out
//                        as basic authentication); that key's session, password stripped, becomes the token's;
//   refresh_token        the refresh token (spent once), issued to this client, unexpired: its access token is
//                        revoked and a new pair issued with the old token's session.
// A refresh token comes with authorization_code, password and refresh_token grants when refresh_token is allowed.
import { createHash } from 'node:crypto';
import { secretMatcher } from '../../domain/key-hash.ts';
import type { Session } from '../../domain/session.ts';
import type { OAuthSpec } from '../definition/api-spec.ts';
import { clientAddress } from '../middleware/access/client-address.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { basicAuthKeyName } from '../../http/basic-auth-data.ts';
import { storageIdOf } from '../session/keys.ts';
import type { OAuthClient, OAuthRecords } from './records.ts';
import { issueToken, revokeStoredAccess, type IssuedToken } from './tokens.ts';
import type { IncomingMessage } from 'node:http';

/** osin's error codes and descriptions. */
export const OAuthErrors = {
  invalid_request:
    'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.',
  unauthorized_client: 'The client is not authorized to request a token using this method.',
  access_denied: 'The resource owner or authorization server denied the request.',
  unsupported_response_type: 'The authorization server does not support obtaining a token using this method.',
  server_error: 'The authorization server encountered an unexpected condition that prevented it from fulfilling the request.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_grant:
    'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  invalid_client: 'Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method).',
} as const;

export type OAuthErrorCode = keyof typeof OAuthErrors;

export type GrantResult = { ok: true; token: IssuedToken } | { ok: false; error: OAuthErrorCode; status?: number };

export interface GrantContext {
  apiId: string;
  orgId: string;
  oauth: OAuthSpec;
  records: OAuthRecords;
  services: PipelineServices;
  req: IncomingMessage;
}

const fail = (error: OAuthErrorCode): GrantResult => ({ ok: false, error });

/** The client the request authenticates as, or undefined (unknown client or wrong secret: the same answer). */
export async function authenticatedClient(ctx: GrantContext, form: URLSearchParams): Promise<OAuthClient | undefined> {
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const header = ctx.req.headers.authorization;
  if (header?.slice(0, 6).toLowerCase() === 'basic ') {
    const pair = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    if (colon > 0) {
      id = decoded(pair.slice(0, colon));
      secret = decoded(pair.slice(colon + 1));
    }
  }
  if (!id) return undefined;
  const client = await ctx.records.getClient(ctx.apiId, id);
  // The secret is compared even for an unknown client, so timing does not tell which ids exist.
  const matches = secretMatcher(client?.secret ?? '\u0000unknown client')(secret);
  return client && matches ? client : undefined;
}

export async function runGrant(ctx: GrantContext, form: URLSearchParams): Promise<GrantResult> {
  const grant = form.get('grant_type') ?? '';
  const allowed = ctx.oauth.allowedAccessTypes as string[];
  if (!['client_credentials', 'authorization_code', 'password', 'refresh_token'].includes(grant) || !allowed.includes(grant))
    return fail('unsupported_grant_type');
  const client = await authenticatedClient(ctx, form);
  if (!client) return fail('invalid_client');
  const withRefresh = allowed.includes('refresh_token');
  const issue = async (options: { session?: Session; authCode?: string; oldRefreshToken?: string; refresh: boolean }): Promise<GrantResult> => ({
    ok: true,
    token: await issueToken(
      { apiId: ctx.apiId, orgId: ctx.orgId, client, withRefresh: options.refresh, ...pick(options, 'session', 'authCode', 'oldRefreshToken') },
      ctx.oauth,
      ctx.records,
      ctx.services,
    ),
  });
  if (grant === 'client_credentials') return issue({ refresh: false });
  if (grant === 'authorization_code') {
    const code = form.get('code') ?? '';
    if (!code) return fail('invalid_request');
    const pending = await ctx.records.takeCode(ctx.apiId, code);
    if (!pending || pending.client_id !== client.client_id || pending.expires_at <= ctx.services.now()) return fail('invalid_grant');
    const redirect = form.get('redirect_uri');
    if (redirect !== null && redirect !== pending.redirect_uri) return fail('invalid_grant');
    if (pending.code_challenge && !verifierMatches(form.get('code_verifier') ?? '', pending.code_challenge, pending.code_challenge_method ?? 'plain'))
      return fail('invalid_grant');
    return issue({ authCode: code, refresh: withRefresh });
  }
  if (grant === 'password') {
    const session = await passwordSession(ctx, form.get('username') ?? '', form.get('password') ?? '');
    return session ? issue({ session, refresh: withRefresh }) : fail('access_denied');
  }
  const refresh = form.get('refresh_token') ?? '';
  const pending = refresh ? await ctx.records.peekRefresh(ctx.apiId, refresh) : undefined;
  if (!pending || pending.client_id !== client.client_id || pending.expires_at <= ctx.services.now()) return fail('invalid_grant');
  if (!(await ctx.records.deleteRefresh(ctx.apiId, refresh))) return fail('invalid_grant');
  const previous = await ctx.services.store.getKey(pending.access_storage_id);
  await revokeStoredAccess(pending.access_storage_id, ctx.services);
  const session = previous ? carriedSession(previous) : undefined;
  return issue({ ...(session ? { session } : {}), oldRefreshToken: refresh, refresh: true });
}

/** The user's key when the password is right, its password stripped; undefined otherwise. */
async function passwordSession(ctx: GrantContext, username: string, password: string): Promise<Session | undefined> {
  if (!username) return undefined;
  const { services } = ctx;
  const storageId = storageIdOf(basicAuthKeyName(ctx.orgId, username), services.config.hash_keys);
  const key = await services.store.getKey(storageId);
  const verdict = await services.passwords.check(key?.basic_auth_data, password, 0, {
    user: ctx.orgId + username,
    client: clientAddress(ctx.req, services.trustedProxies),
  });
  if (!verdict.ok || !key) return undefined;
  return carriedSession(key);
}

/** What a new token keeps of an earlier session: its grants and limits, not its identity or bookkeeping. */
function carriedSession(session: Session): Session {
  const {
    basic_auth_data: _password,
    expires: _expires,
    date_created: _created,
    last_updated: _updated,
    quota_remaining: _q,
    quota_renews: _r,
    ...kept
  } = session;
  return kept;
}

/** RFC 6749 form-encodes the Basic credentials; a malformed escape is taken as written (and will not match). */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

function verifierMatches(verifier: string, challenge: string, method: 'plain' | 'S256'): boolean {
  if (!verifier) return false;
  const derived = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return secretMatcher(challenge)(derived);
}

function pick<T extends object, K extends keyof T>(from: T, ...keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (from[key] !== undefined) picked[key] = from[key];
  return picked;
}
