// OAuth 2.0 bearer authentication (use_oauth2 APIs), as Tyk Gateway's Oauth2KeyExists: the Authorization header
// must be `Bearer <token>` (the scheme word in any case): no header or one word 400 `Authorization field missing`,
// another scheme 400 `Bearer token malformed`; a token that is not an OAuth token issued for this API (unknown, or
// without an oauth_client_id) 403 `Key not authorised`; its client deleted 403 `Key not authorised. OAuth client
// access was revoked` (clients are looked up at most once per CLIENT_CHECK_MS per gateway, as Tyk caches them for a
// few seconds). Then the key is admitted like any other (admit-key.ts: inactive, expired 401 `Key has expired,
// please renew`), and its session (the client's policy) drives access rights, limits and quota.
import { LRUCache } from 'lru-cache';
import type { ApiSpec } from '../../definition/api-spec.ts';
import { OAuthRecords } from '../../oauth/records.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { ResolvedKey } from '../../session/session-cache.ts';
import { admitKey } from './admit-key.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { providesIdentity } from './auth-modes.ts';

export const OAuthMessages = {
  malformed: 'Bearer token malformed',
  notAuthorised: 'Key not authorised',
  clientRevoked: 'Key not authorised. OAuth client access was revoked',
} as const;

const CLIENT_CHECK_MS = 2_000;

export function oauthBearer(spec: ApiSpec, services: PipelineServices, providesIdentity: boolean): Step {
  const hideGenerator = services.config.hide_generator_header;
  const records = new OAuthRecords(services.store);
  const clients = new LRUCache<string, { exists: boolean; until: number }>({ max: 10_000 });
  const refuse = (ctx: ProxyContext, status: number, message: string): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator });
    return true;
  };
  const clientExists = (id: string): boolean | Promise<boolean> => {
    const cached = clients.get(id);
    if (cached && cached.until > services.now()) return cached.exists;
    return records.getClient(spec.id, id).then((client) => {
      clients.set(id, { exists: client !== undefined, until: services.now() + CLIENT_CHECK_MS });
      return client !== undefined;
    });
  };
  const check = (ctx: ProxyContext, token: string, key: ResolvedKey | undefined): boolean | Promise<boolean> => {
    const clientId = key?.ok ? key.effective.session.oauth_client_id : undefined;
    if (!key || (key.ok && !clientId)) return refuse(ctx, 403, OAuthMessages.notAuthorised);
    if (!clientId) return admitKey(ctx, key, services, providesIdentity); // policies fail: admitKey refuses
    const admit = (exists: boolean): boolean => {
      if (!exists) return refuse(ctx, 403, OAuthMessages.clientRevoked);
      if (providesIdentity) ctx.token = token;
      return admitKey(ctx, key, services, providesIdentity);
    };
    const exists = clientExists(clientId);
    return exists instanceof Promise ? exists.then(admit) : admit(exists);
  };
  return (ctx) => {
    if (ctx.ignored) return false;
    const parts = (ctx.req.headers.authorization ?? '').trim().split(/\s+/);
    if (parts.length < 2) return refuse(ctx, 400, Messages.authMissing);
    if (parts[0]!.toLowerCase() !== 'bearer' || parts.length !== 2) return refuse(ctx, 400, OAuthMessages.malformed);
    const token = parts[1]!;
    const resolved = services.sessions.resolve(services.storageIds.of(token, services.config.hash_keys));
    return resolved instanceof Promise ? resolved.then((key) => check(ctx, token, key)) : check(ctx, token, resolved);
  };
}

export const oauthBearerStep: StepDescriptor = {
  name: 'oauth-bearer',
  enabledFor: (api) => api.oauth !== undefined,
  build: (api, services) => ({ request: oauthBearer(api, services, providesIdentity(api, 'oauth_key')) }),
};
