// Virtual endpoints (extended_paths.virtual): the first rule of the request's version matching its path and method
// answers the request with the JavaScript function it names, called as Tyk Gateway does: `fn(request, session,
// spec)` with request {Headers, Body (plain text), URL, Params (query and form), Scheme}, the key's session with
// use_session (else `{}`), spec {OrgID, APIID, config_data}. The function returns TykJsResponse({Body, Headers,
// Code}, sessionMeta); the answer is written as given and goes through the API's response phase. With use_session a
// changed SessionMeta replaces the key's meta_data. A failure answers 500 `Error during virtual endpoint
// execution. Contact Administrator for more details.`, or, with proxy_on_error, hands the request on upstream.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { ProxyContext, Step } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import { withRequestBody } from '../pipeline/request-body.ts';
import { respond } from '../pipeline/response-phase.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { argJson, CallJson, NO_SESSION_JSON } from './call-json.ts';
import { hostCalls } from './host-calls.ts';
import { queryParams, requestHeaders, requestUrl, stringMap, validHeader } from './mini-request.ts';
import { PluginMessages } from './plugin-messages.ts';
import { sessionOf, specObject, storeSessionMeta } from './plugin-session.ts';
import type { VirtualEndpointRule } from './plugin-spec.ts';
import { pluginPool } from './request-hook.ts';
import type { StepDescriptor } from '../pipeline/step.ts';

export function virtualEndpoints(spec: ApiSpec, services: PipelineServices): Step | undefined {
  const plugins = spec.plugins;
  if (!plugins || ![...spec.versions.values()].some((version) => version.virtualEndpoints)) return undefined;
  const pool = pluginPool(spec, services);
  const host = hostCalls(spec, services);
  const specJson = specObject(spec, plugins);
  // Each function's part of its calls' message, serialized once (a function may serve rules of several versions).
  const calls = new Map<string, CallJson>();
  for (const version of spec.versions.values())
    for (const rule of version.virtualEndpoints ?? [])
      if (!calls.has(rule.functionName)) calls.set(rule.functionName, new CallJson('virtual', rule.functionName, specJson));
  const hide = services.config.hide_generator_header;

  return (ctx) => {
    const rule = ctx.version?.virtualEndpoints?.find((entry) => (entry.method === '' || entry.method === ctx.method) && entry.pattern.test(ctx.relPath));
    if (!rule) return false;
    return withRequestBody(ctx, services.config.jsvm_max_body_bytes, hide, (body) => answer(ctx, rule, body));
  };

  async function answer(ctx: ProxyContext, rule: VirtualEndpointRule, body: Buffer): Promise<boolean> {
    const session = rule.useSession ? sessionOf(ctx) : undefined;
    const text = body.toString('utf8');
    const params = queryParams(ctx.query);
    if (/^application\/x-www-form-urlencoded\b/i.test(ctx.req.headers['content-type'] ?? '')) {
      for (const [name, values] of Object.entries(queryParams(text))) (params[name] ??= []).push(...values);
    }
    const scheme = (ctx.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const request = { Headers: requestHeaders(ctx), Body: text, URL: requestUrl(ctx), Params: params, Scheme: scheme };
    const call = calls.get(rule.functionName) ?? new CallJson('virtual', rule.functionName, specJson);
    const outcome = await pool.call(plugins!.script, call.of(argJson(request), session ? argJson(session) : NO_SESSION_JSON), host, spec.id);
    const reply = outcome.ok ? parseReply(outcome.value) : undefined;
    if (!reply) {
      const reason = outcome.ok ? 'the function did not return TykJsResponse({Body, Headers, Code}, meta)' : outcome.message;
      services.log.error({ api_id: spec.id, function: rule.functionName, reason }, 'virtual endpoint failed');
      if (rule.proxyOnError) return false;
      writeError(ctx.req, ctx.res, 500, PluginMessages.virtualFailed, { hideGenerator: hide });
      return true;
    }
    if (session && reply.SessionMeta !== undefined) await storeSessionMeta(ctx, session, reply.SessionMeta, services);
    const headers: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(stringMap(reply.Response.Headers))) if (validHeader(name, value)) headers[name.toLowerCase()] = value;
    headers['content-length'] = Buffer.byteLength(reply.Response.Body);
    respond(ctx.res, { status: reply.Response.Code, headers, origin: 'mock' }, reply.Response.Body);
    return true;
  }
}

function parseReply(value: string | undefined): { Response: { Body: string; Headers: unknown; Code: number }; SessionMeta?: unknown } | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as { Response?: { Body?: unknown; Headers?: unknown; Code?: unknown }; SessionMeta?: unknown };
    const response = parsed?.Response;
    if (typeof response !== 'object' || response === null) return undefined;
    const code = typeof response.Code === 'number' && response.Code >= 100 && response.Code <= 599 ? Math.trunc(response.Code) : 200;
    const body = typeof response.Body === 'string' ? response.Body : response.Body === undefined ? '' : JSON.stringify(response.Body);
    return { Response: { Body: body, Headers: response.Headers, Code: code }, SessionMeta: parsed.SessionMeta };
  } catch {
    return undefined;
  }
}

/** extended_paths.virtual: answered by a JavaScript function, after the response cache. */
export const virtualEndpointsStep: StepDescriptor = {
  name: 'virtual-endpoint',
  enabledFor: (api) => api.plugins !== undefined,
  build: (api, services) => {
    const step = virtualEndpoints(api, services);
    return step ? { request: step } : {};
  },
};
