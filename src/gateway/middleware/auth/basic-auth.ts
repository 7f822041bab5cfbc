// Basic authentication (use_basic_auth / OAS http basic): `Authorization: <anything> base64(user:password)` (Tyk
//  does not check the word `Basic`), or, when configured and the header gives none, the first groups of two
// regexps over the body (read whole, at most 1 MiB, then forwarded from memory). The key is <org_id><username>;
// its stored basic_auth_data must match the password (credentials/basic-passwords.ts, cached). Then admitted like a token's key (admit-key.ts).
// Refusals (docs/compatibility.md): no header 401 `Authorization field missing`; malformed 400 `Attempted access
// with malformed header, ...`; unknown user or wrong password 401 `User not authorised`; both 401s carry
// `WWW-Authenticate: Basic realm="<API name>"`. Body errors 400 with Tyk's messages; a body over 1 MiB 413.
// Tyk has no answer for these two of ours: too many failed attempts for the user or the client 429 with Retry-After
// (as the dashboard's sign-in), every password worker busy and the queue full 503 with Retry-After.
import type { BasicAuthSpec } from '../../definition/api-spec.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import { readRequestBody } from '../../pipeline/request-body.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { PasswordVerdict } from '../../credentials/basic-passwords.ts';
import type { ResolvedKey } from '../../session/session-cache.ts';
import { admitKey } from './admit-key.ts';
import { clientAddress } from '../access/client-address.ts';
import { readCredential } from './credential.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { providesIdentity } from './auth-modes.ts';

export const BasicMessages = {
  notAuthorised: 'User not authorised',
  malformed: 'Attempted access with malformed header, header not in basic auth format',
  badEncoding: 'Attempted access with malformed header, auth data not encoded correctly',
  notUserPass: 'Attempted access with malformed header, values not in basic auth format',
  bodyNoUser: 'Body do not contain username',
  bodyUserGroup: 'username should be inside regexp match group',
  bodyNoPassword: 'Body do not contain password',
  bodyPasswordGroup: 'password should be inside regexp match group',
  bodyTooLarge: 'Request body too large to read credentials from',
  lockedOut: 'Too many failed authentication attempts: try again later',
  busy: 'Too many password checks at once: try again shortly',
} as const;

/** Largest body read for credentials (extract_from_body); a larger one is refused with 413. */
const MAX_BODY_BYTES = 1024 * 1024;

type Parsed = { ok: true; user: string; password: string } | { ok: false; status: number; message: string };

export function parseBasicHeader(value: string): Parsed {
  const parts = value.split(' ');
  if (parts.length !== 2) return { ok: false, status: 400, message: BasicMessages.malformed };
  const encoded = parts[1]!;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return { ok: false, status: 400, message: BasicMessages.badEncoding };
  const pair = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  if (pair.length !== 2) return { ok: false, status: 400, message: BasicMessages.notUserPass };
  return { ok: true, user: pair[0]!, password: pair[1]! };
}

export function basicAuth(spec: BasicAuthSpec, api: { orgId: string; name: string }, services: PipelineServices, providesIdentity: boolean): Step {
  const { hash_keys: hashKeys, hide_generator_header: hideGenerator } = services.config;
  const realm = { 'WWW-Authenticate': `Basic realm="${api.name.replace(/["\\]/g, '')}"` };
  const refuse = (ctx: ProxyContext, status: number, message: string, headers?: Record<string, string>): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator, ...(headers ? { headers } : {}) });
    return true;
  };
  // Each stage answers in place when it can (a cached key, a cached password check), so the common request (a
  // known user with a password verified in the last cache_ttl) costs no promise.
  // An unknown user, or a key without basic_auth_data, is checked against a dummy hash (as slow as a wrong password).
  const checkPassword = (ctx: ProxyContext, key: ResolvedKey | undefined, user: string, password: string): boolean | Promise<boolean> => {
    if (key && !key.ok) return admitKey(ctx, key, services, providesIdentity); // policies fail: admitKey refuses
    const stored = key?.effective.session.basic_auth_data;
    const answer = (verdict: PasswordVerdict): boolean => {
      if (verdict.ok) return admitKey(ctx, key!, services, providesIdentity);
      if (verdict.reason === 'wrong') return refuse(ctx, 401, BasicMessages.notAuthorised, realm);
      if (verdict.reason === 'locked-out') return refuse(ctx, 429, BasicMessages.lockedOut, { 'Retry-After': String(verdict.retryAfterSeconds) });
      return refuse(ctx, 503, BasicMessages.busy, { 'Retry-After': '1' });
    };
    const checked = services.passwords.check(stored, password, spec.cacheTtl, {
      user: api.orgId + user,
      client: clientAddress(ctx.req, services.trustedProxies),
    });
    return checked instanceof Promise ? checked.then(answer) : answer(checked);
  };
  const verify = (ctx: ProxyContext, user: string, password: string): boolean | Promise<boolean> => {
    const found = services.sessions.resolve(services.storageIds.of(api.orgId + user, hashKeys));
    return found instanceof Promise ? found.then((key) => checkPassword(ctx, key, user, password)) : checkPassword(ctx, found, user, password);
  };
  const answer = (ctx: ProxyContext, parsed: Parsed | undefined): boolean | Promise<boolean> => {
    if (!parsed) return refuse(ctx, 401, Messages.authMissing, realm);
    if (!parsed.ok) return refuse(ctx, parsed.status, parsed.message);
    return verify(ctx, parsed.user, parsed.password);
  };
  return (ctx) => {
    if (ctx.ignored) return false;
    const header = readCredential(ctx.req, ctx.query, spec.credential);
    const parsed: Parsed | undefined = header ? parseBasicHeader(header) : undefined;
    if (spec.body && !parsed?.ok) return fromBody(ctx, spec.body).then((fromBodyParsed) => answer(ctx, fromBodyParsed));
    return answer(ctx, parsed);
  };
}

/**
 * Credentials from the body, as Tyk reads them: only when the header gave none, the first group of each
 * regexp. The body is kept on the context and forwarded from there.
 */
async function fromBody(ctx: ProxyContext, regexps: NonNullable<BasicAuthSpec['body']>): Promise<Parsed> {
  const read = await readRequestBody(ctx, MAX_BODY_BYTES);
  if (read === 'too_large') return { ok: false, status: 413, message: BasicMessages.bodyTooLarge };
  const body = read.toString('utf8');
  const user = regexps.user.exec(body);
  if (!user) return { ok: false, status: 400, message: BasicMessages.bodyNoUser };
  if (user[1] === undefined) return { ok: false, status: 400, message: BasicMessages.bodyUserGroup };
  const password = regexps.password.exec(body);
  if (!password) return { ok: false, status: 400, message: BasicMessages.bodyNoPassword };
  if (password[1] === undefined) return { ok: false, status: 400, message: BasicMessages.bodyPasswordGroup };
  return { ok: true, user: user[1], password: password[1] };
}

export const basicAuthStep: StepDescriptor = {
  name: 'basic-auth',
  enabledFor: (api) => api.basic !== undefined,
  build: (api, services) => ({ request: basicAuth(api.basic!, api, services, providesIdentity(api, 'basic_auth_user')) }),
};
