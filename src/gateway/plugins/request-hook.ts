// A request hook of JavaScript plugins (custom_middleware pre, post_key_auth, post), as one pipeline step: for each
// plugin of the hook in order, the request (body read up to jsvm_max_body_bytes), the session (post_key_auth and
// post with require_session; `{}` otherwise, as for pre) and the spec ({OrgID, APIID, config_data}) go to
// `<name>.DoProcessRequest` in a plugin worker (plugin-pool.ts); what it returns is applied (mini-request.ts) and a
// changed SessionMeta replaces the key's meta_data. A plugin that fails, times out or returns nothing usable fails
// this request only: 500 `Internal Server Error`, Tyk Gateway's answer (the reason is logged).
import { DefinitionError, type ApiSpec } from '../definition/api-spec.ts';
import type { ProxyContext, Step } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import { respond } from '../pipeline/response-phase.ts';
import { withRequestBody } from '../pipeline/request-body.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { argJson, CallJson, NO_SESSION_JSON } from './call-json.ts';
import { hostCalls } from './host-calls.ts';
import { applyRequest, miniRequestJson, type Applied, type MiniRequest } from './mini-request.ts';
import { PluginMessages } from './plugin-messages.ts';
import type { MiddlewareHook, PluginsSpec } from './plugin-spec.ts';
import type { PluginPool } from './plugin-pool.ts';
import { sessionOf, specObject, storeSessionMeta } from './plugin-session.ts';

export type RequestHookName = 'pre' | 'postKeyAuth' | 'post';

/** The plugins' pool, or the refusal of an API using plugins on a gateway without enable_jsvm. */
export function pluginPool(spec: ApiSpec, services: PipelineServices): PluginPool {
  if (!services.plugins) throw new DefinitionError('custom_middleware and virtual endpoints run JavaScript: the gateway needs enable_jsvm');
  return services.plugins;
}

export function requestHook(hook: RequestHookName, plugins: PluginsSpec, spec: ApiSpec, services: PipelineServices): Step {
  const pool = pluginPool(spec, services);
  const host = hostCalls(spec, services);
  const specJson = specObject(spec, plugins);
  // Each plugin's part of its calls' message, serialized once.
  const list = plugins[hook].map((plugin) => ({ plugin, call: new CallJson('middleware', plugin.name, specJson) }));
  const hide = services.config.hide_generator_header;
  // One plugin (the usual hook) is its own step: no loop awaiting it (about 0.2 µs per call).
  const [only] = list;
  const runAll =
    list.length === 1 && only
      ? (ctx: ProxyContext): Promise<boolean> => runPlugin(ctx, only.plugin, only.call)
      : async (ctx: ProxyContext): Promise<boolean> => {
          for (const { plugin, call } of list) if (await runPlugin(ctx, plugin, call)) return true;
          return false;
        };
  // A request without a body (HTTP/1.1: neither Content-Length nor Transfer-Encoding) has nothing to read first.
  return (ctx) => (hasNoBody(ctx) ? runAll(ctx) : withRequestBody(ctx, services.config.jsvm_max_body_bytes, hide, () => runAll(ctx)));

  async function runPlugin(ctx: ProxyContext, plugin: MiddlewareHook, call: CallJson): Promise<boolean> {
    const session = hook !== 'pre' && plugin.requireSession ? sessionOf(ctx) : undefined;
    const outcome = await pool.call(plugins.script, call.of(miniRequestJson(ctx, ctx.body), session ? argJson(session) : NO_SESSION_JSON), host, spec.id);
    const returned = outcome.ok ? parseReturn(outcome.value) : undefined;
    if (!returned) {
      const reason = outcome.ok ? "the plugin's return value is not TykJsMiddleware.ReturnData's" : outcome.message;
      services.log.error(
        { api_id: spec.id, plugin: plugin.name, hook, reason },
        outcome.ok || !outcome.timedOut ? 'JS middleware failed' : 'JS middleware timed out',
      );
      writeError(ctx.req, ctx.res, 500, PluginMessages.failed, { hideGenerator: hide });
      return true;
    }
    if (session && returned.SessionMeta !== undefined) await storeSessionMeta(ctx, session, returned.SessionMeta, services);
    return answerApplied(ctx, applyRequest(ctx, returned.Request, (ctx.body?.length ?? 0) > 0), hide);
  }
}

/** No body to read: none read yet, and the request declares none (no Content-Length, no Transfer-Encoding). */
export function hasNoBody(ctx: ProxyContext): boolean {
  const headers = ctx.req.headers;
  return ctx.body === undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined;
}

/** Answers what a plugin's ReturnOverrides decided (an error, or a response as given); false: the request goes on. */
export function answerApplied(ctx: ProxyContext, applied: Applied, hide: boolean): boolean {
  if (applied.kind === 'continue') return false;
  if (applied.kind === 'error') writeError(ctx.req, ctx.res, applied.status, applied.message, { hideGenerator: hide, headers: applied.headers });
  else {
    const headers = Object.fromEntries(Object.entries(applied.headers).map(([name, value]) => [name.toLowerCase(), value]));
    respond(ctx.res, { status: applied.status, headers: { ...headers, 'content-length': Buffer.byteLength(applied.body) }, origin: 'mock' }, applied.body);
  }
  return true;
}

/** What DoProcessRequest returned: ReturnData's {Request, SessionMeta}, ReturnAuthData's {Request, Session} (+ AuthValue). */
export interface PluginReturn {
  Request: Partial<MiniRequest>;
  SessionMeta?: unknown;
  Session?: unknown;
  AuthValue?: unknown;
}

export function parseReturn(value: string | undefined): PluginReturn | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<Record<keyof PluginReturn, unknown>>;
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.Request !== 'object' || parsed.Request === null) return undefined;
    return { Request: parsed.Request, SessionMeta: parsed.SessionMeta, Session: parsed.Session, AuthValue: parsed.AuthValue };
  } catch {
    return undefined;
  }
}
