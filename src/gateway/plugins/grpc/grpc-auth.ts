// A gRPC plugin's authentication (custom_middleware.auth_check with driver grpc and enable_coprocess_auth): Tyk's
// CustomKeyCheck hook. The request goes to the plugin server; its return_overrides refuse as for other hooks (an
// empty message is `Key not authorised`); else it must return a session and metadata["token"], or the request gets
// 403 `Forbidden` (Tyk Gateway's). That session, with the Object's metadata merged into its meta data and the API's
// org, is stored as the key named by the token (hashed as every key) — written only when it changed, the key's
// rate limit and quota counters kept — and then admitted as every mode's key (admit-key.ts): access rights, rate
// limits and quotas follow. A token naming a stored key of another organisation is refused with 403 `Forbidden`
// (Tyk merges into it). A dispatch failure refuses with 403 `Key not authorised` (Tyk's answer for this hook).
// With an id_extractor (Tyk's ID extractor, id-extractor.ts) the request's identity names the key instead of the
// token: org id + MD5 of the identity. A stored key there of this organisation whose id_extractor_deadline (Unix
// seconds, set by the plugin in the session it returns) is still ahead is admitted without calling the plugin; a
// request without the identity gets 400 `Authorization field missing`, as Tyk's.
import type { Session } from '../../../domain/session.ts';
import type { ApiSpec } from '../../definition/api-spec.ts';
import type { GrpcHook, GrpcPluginsSpec } from '../../definition/plugin-types.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import { withRequestBody } from '../../pipeline/request-body.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { admitKey } from '../../middleware/auth/admit-key.ts';
import { HookType, type CoprocessSession } from './coprocess-messages.ts';
import { applyCoprocessRequest, coprocessRequest, coprocessSpec, KEY_NOT_AUTHORISED } from './coprocess-request.ts';
import { dispatcherFor, grpcBodyLimit } from './grpc-request-hook.ts';
import { extractSessionId } from './id-extractor.ts';

export function grpcAuth(hook: GrpcHook, plugins: GrpcPluginsSpec, spec: ApiSpec, services: PipelineServices): Step {
  const client = dispatcherFor(services);
  const specMap = coprocessSpec(spec, plugins);
  const hide = services.config.hide_generator_header;
  const refuse = (ctx: ProxyContext, status: number, message: string): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator: hide });
    return true;
  };
  const extractor = plugins.idExtractor;
  return (ctx) => {
    if (ctx.ignored) return false;
    return withRequestBody(ctx, grpcBodyLimit(services), hide, async () => {
      // With an extractor the key is named by the identity (its storage id found once), else by the plugin's token.
      let extracted: { keyName: string; storageId: string } | undefined;
      if (extractor) {
        const extraction = extractSessionId(ctx, extractor, spec.orgId);
        if (!extraction.ok) {
          services.log.info({ api_id: spec.id, plugin: hook.name, reason: extraction.reason }, 'ID extractor found no identity');
          return refuse(ctx, 400, Messages.authMissing);
        }
        extracted = { keyName: extraction.sessionId, storageId: services.storageIds.of(extraction.sessionId, services.config.hash_keys) };
        const cached = await services.sessions.resolve(extracted.storageId);
        if (cached?.ok && cached.effective.session.org_id === spec.orgId && (cached.effective.session.id_extractor_deadline ?? 0) > Date.now() / 1000) {
          ctx.token = extracted.keyName;
          return admitKey(ctx, cached, services, true);
        }
      }
      const answer = await client.dispatch({ hook_type: HookType.CustomKeyCheck, hook_name: hook.name, request: coprocessRequest(ctx, hook), spec: specMap });
      if (!answer.ok || !answer.object.request) {
        const reason = answer.ok ? 'the answer has no request' : answer.reason;
        services.log.error({ api_id: spec.id, plugin: hook.name, hook: 'auth_check', reason }, 'gRPC plugin failed');
        return refuse(ctx, 403, KEY_NOT_AUTHORISED);
      }
      const applied = applyCoprocessRequest(ctx, answer.object.request);
      if (applied.kind === 'error') {
        writeError(ctx.req, ctx.res, applied.status, applied.message, { hideGenerator: hide, headers: applied.headers });
        return true;
      }
      const returned = answer.object.session;
      const metadata = { ...(returned?.metadata ?? {}), ...(answer.object.metadata ?? {}) };
      const token = metadata.token;
      if (!returned || !token) return refuse(ctx, 403, 'Forbidden');
      const keyName = extracted?.keyName ?? token;
      const storageId = extracted?.storageId ?? services.storageIds.of(token, services.config.hash_keys);
      const session = storedSession(returned, metadata, spec.orgId);
      const stored = await services.store.getKey(storageId);
      // A token naming another organisation's key is refused, never merged into it: one organisation's API (and the
      // client's header the plugin reads the token from) must not rewrite, or borrow, another organisation's key.
      if (stored && (stored.org_id ?? '') !== spec.orgId) return refuse(ctx, 403, 'Forbidden');
      if (!stored || !sameSession(stored, session)) {
        await services.store.putKey(storageId, { ...stored, ...session }, { resetCounters: false });
        services.sessions.invalidate(storageId);
      }
      const key = await services.sessions.resolve(storageId);
      if (!key) return refuse(ctx, 403, 'Forbidden');
      ctx.token = keyName;
      return admitKey(ctx, key, services, true);
    });
  };
}

/** The returned coprocess session as a gw key: limits, rights, policies, meta data; the org is the API's. */
function storedSession(returned: CoprocessSession, metadata: Record<string, string>, orgId: string): Session {
  const accessRights = Object.entries(returned.access_rights ?? {});
  return {
    rate: returned.rate ?? 0,
    per: returned.per ?? 0,
    quota_max: returned.quota_max || -1,
    quota_renewal_rate: returned.quota_renewal_rate ?? 0,
    expires: returned.expires ?? 0,
    org_id: orgId,
    ...(accessRights.length > 0
      ? {
          access_rights: Object.fromEntries(
            accessRights.map(([id, rights]) => [id, { api_id: rights.api_id || id, api_name: rights.api_name ?? '', versions: rights.versions ?? [] }]),
          ),
        }
      : {}),
    ...(returned.apply_policies?.length ? { apply_policies: returned.apply_policies } : {}),
    ...(returned.is_inactive ? { is_inactive: true } : {}),
    ...(returned.tags?.length ? { tags: returned.tags } : {}),
    ...(returned.alias ? { alias: returned.alias } : {}),
    ...(returned.id_extractor_deadline ? { id_extractor_deadline: returned.id_extractor_deadline } : {}),
    meta_data: metadata,
  };
}

function sameSession(stored: Session, session: Session): boolean {
  return Object.entries(session).every(([field, value]) => JSON.stringify(stored[field as keyof Session]) === JSON.stringify(value));
}

/** custom_middleware.auth_check (driver grpc, enable_coprocess_auth): the API's authentication. */
export const grpcAuthStep: StepDescriptor = {
  name: 'grpc-auth',
  enabledFor: (api) => api.grpcPlugins?.auth !== undefined,
  build: (api, services) => ({ request: grpcAuth(api.grpcPlugins!.auth!, api.grpcPlugins!, api, services) }),
};
