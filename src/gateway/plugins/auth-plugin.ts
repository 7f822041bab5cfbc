// custom_middleware.auth_check with a JavaScript driver: the API's requests are authenticated by a plugin, as Tyk
// Gateway's JSVM custom authentication. `<name>.DoProcessRequest(request, {}, spec)` runs in a plugin worker
// (plugin-pool.ts) after the built-in modes; the plugin refuses with ReturnOverrides (a ResponseCode >= 400 answers
// `{"error": ResponseError}`, e.g. Tyk's sample 401 `Header missing (JS middleware)`) or admits by returning
// `ReturnAuthData(request, session)`: {Request, Session}, with `AuthValue` beside them naming the key (Tyk's
// Session.KeyID). The session (Tyk's key fields: rate/per, quota_max/quota_renewal_rate, access_rights,
// apply_policies, meta_data, expires, is_inactive) is merged with its policies and checked like any key
// (admit-key.ts), then enforced by the steps after: access rights, rate limit and quota, counted under the
// AuthValue (absent: the request's Authorization header; absent too: one identity for the whole API). A session
// without access_rights grants this API, as Tyk lets an empty access_rights through. The returned request's edits
// apply as for any request plugin. A failure (throw, timeout, a return that is not ReturnAuthData's, a session that is
// not a key object) is 500 `Internal Server Error`, Tyk Gateway's answer, the reason logged.
import type { Session as SessionType } from '../../domain/session.ts';
import { Session } from '../../domain/session.ts';
import type { ApiSpec } from '../definition/api-spec.ts';
import { admitKey } from '../middleware/auth/admit-key.ts';
import type { ProxyContext, Step } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import { withRequestBody } from '../pipeline/request-body.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import type { StepDescriptor } from '../pipeline/step.ts';
import { CallJson, NO_SESSION_JSON } from './call-json.ts';
import { hostCalls } from './host-calls.ts';
import { applyRequest, miniRequestJson } from './mini-request.ts';
import { PluginMessages } from './plugin-messages.ts';
import { specObject } from './plugin-session.ts';
import { answerApplied, parseReturn, pluginPool, type PluginReturn } from './request-hook.ts';

export function authPlugin(spec: ApiSpec, services: PipelineServices): Step {
  const plugins = spec.plugins!;
  const hook = plugins.authCheck!;
  const pool = pluginPool(spec, services);
  const host = hostCalls(spec, services);
  const call = new CallJson('middleware', hook.name, specObject(spec, plugins));
  const hide = services.config.hide_generator_header;
  const hashKeys = services.config.hash_keys;
  // base_identity_provided_by names one of the built-in modes: that mode's session is the request's, not this one's.
  const providesIdentity = spec.baseIdentity === '';

  const fail = (ctx: ProxyContext, reason: string, timedOut = false): true => {
    services.log.error({ api_id: spec.id, plugin: hook.name, hook: 'auth_check', reason }, timedOut ? 'JS middleware timed out' : 'JS middleware failed');
    writeError(ctx.req, ctx.res, 500, PluginMessages.failed, { hideGenerator: hide });
    return true;
  };

  return (ctx) =>
    withRequestBody(ctx, services.config.jsvm_max_body_bytes, hide, async () => {
      if (ctx.ignored) return false;
      const outcome = await pool.call(plugins.script, call.of(miniRequestJson(ctx, ctx.body), NO_SESSION_JSON), host, spec.id);
      if (!outcome.ok) return fail(ctx, outcome.message, outcome.timedOut);
      const returned = parseReturn(outcome.value);
      if (!returned) return fail(ctx, "the plugin's return value is not TykJsMiddleware.ReturnAuthData's");
      if (answerApplied(ctx, applyRequest(ctx, returned.Request, (ctx.body?.length ?? 0) > 0), hide)) return true;
      const session = Session.safeParse(returned.Session ?? {});
      if (!session.success) return fail(ctx, `the plugin's session is not a key: ${session.error.issues[0]?.message ?? 'invalid'}`);
      const granted = withThisApi(session.data, spec);
      const storageId = services.storageIds.of(keyName(returned, ctx, spec), hashKeys);
      // The session is the plugin's to change from one call to the next: merged again whenever it differs.
      const key = services.sessions.derive(storageId, granted, JSON.stringify(granted));
      return admitKey(ctx, key, services, providesIdentity);
    });
}

/** Tyk's Session.KeyID: the AuthValue the plugin returned; else the Authorization header; else one per API. */
function keyName(returned: PluginReturn, ctx: ProxyContext, spec: ApiSpec): string {
  if (typeof returned.AuthValue === 'string' && returned.AuthValue !== '') return returned.AuthValue;
  const header = ctx.req.headers.authorization;
  return header ? header : `custom-auth:${spec.id}`;
}

function withThisApi(session: SessionType, spec: ApiSpec): SessionType {
  const rights = session.access_rights ?? {};
  if (Object.keys(rights).length > 0 || (session.apply_policies ?? []).length > 0) return session;
  return { ...session, access_rights: { [spec.id]: { api_id: spec.id, api_name: spec.name, versions: [] } } };
}

/** custom_middleware.auth_check: after the built-in authentication modes, before post_key_auth plugins. */
export const authPluginStep: StepDescriptor = {
  name: 'js-auth-check',
  enabledFor: (api) => api.plugins?.authCheck !== undefined,
  build: (api, services) => ({ request: authPlugin(api, services) }),
};
