// custom_middleware.response: JavaScript response plugins, a response step of the APIs that have them. For an
// upstream's answer it claims the body (buffered up to jsvm_max_body_bytes) and calls `<name>.DoProcessResponse(
// response, request, session, spec)` for each plugin in order, with response {StatusCode, Body (plain text),
// Headers, SetHeaders, DeleteHeaders}; what comes back as {Response} is applied as Tyk Gateway does: DeleteHeaders,
// then SetHeaders, then the body (Content-Length recomputed), then the status when non-zero. A failure answers
// 500 `Middleware error` (Tyk's). Answers the gateway makes itself (errors, mocks, virtual endpoints) are not
// given to response plugins.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { ProxyContext, ResponseHead, ResponseStep } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { argJson, CallJson } from './call-json.ts';
import { hostCalls } from './host-calls.ts';
import { canonicalHeader, miniRequestJson, stringMap, validHeader } from './mini-request.ts';
import { PluginMessages } from './plugin-messages.ts';
import { sessionOf, specObject } from './plugin-session.ts';
import { pluginPool } from './request-hook.ts';
import type { StepDescriptor } from '../pipeline/step.ts';

export function responsePlugins(spec: ApiSpec, services: PipelineServices): ResponseStep | undefined {
  const plugins = spec.plugins;
  if (!plugins || plugins.response.length === 0) return undefined;
  const pool = pluginPool(spec, services);
  const host = hostCalls(spec, services);
  const specJson = specObject(spec, plugins);
  // Each plugin's part of its calls' message, serialized once.
  const list = plugins.response.map((plugin) => ({ plugin, call: new CallJson('response', plugin.name, specJson) }));
  const hide = services.config.hide_generator_header;

  async function rewrite(ctx: ProxyContext, head: ResponseHead, body: Buffer): Promise<Buffer | undefined> {
    let current = body;
    for (const { plugin, call } of list) {
      const headers: Record<string, string[]> = {};
      for (const [name, value] of Object.entries(head.headers)) {
        if (value !== undefined) headers[canonicalHeader(name)] = Array.isArray(value) ? value : [String(value)];
      }
      const response = { StatusCode: head.status, Body: current.toString('utf8'), Headers: headers, SetHeaders: {}, DeleteHeaders: [] };
      const session = plugin.requireSession ? (sessionOf(ctx) ?? {}) : {};
      const outcome = await pool.call(plugins!.script, call.ofResponse(argJson(response), miniRequestJson(ctx, null), argJson(session)), host, spec.id);
      const returned = outcome.ok ? parseResponse(outcome.value) : undefined;
      if (!returned) {
        services.log.error(
          { api_id: spec.id, plugin: plugin.name, reason: outcome.ok ? 'no {Response} returned' : outcome.message },
          'JS response middleware failed',
        );
        writeError(ctx.req, ctx.res, 500, PluginMessages.responseFailed, { hideGenerator: hide });
        return undefined;
      }
      for (const name of Array.isArray(returned.DeleteHeaders) ? returned.DeleteHeaders : []) delete head.headers[String(name).toLowerCase()];
      for (const [name, value] of Object.entries(stringMap(returned.SetHeaders))) if (validHeader(name, value)) head.headers[name.toLowerCase()] = value;
      if (typeof returned.Body === 'string') current = Buffer.from(returned.Body, 'utf8');
      if (typeof returned.StatusCode === 'number' && returned.StatusCode >= 100 && returned.StatusCode <= 599) head.status = Math.trunc(returned.StatusCode);
    }
    return current;
  }

  return {
    name: 'response plugins',
    head: () => undefined,
    body: (ctx, head) =>
      head.origin === 'upstream'
        ? {
            maxBytes: services.config.jsvm_max_body_bytes,
            rewrite: (body) => rewrite(ctx, head, body),
            tooLarge: () => writeError(ctx.req, ctx.res, 500, PluginMessages.responseFailed, { hideGenerator: hide }),
          }
        : undefined,
  };
}

interface ReturnedResponse {
  StatusCode?: unknown;
  Body?: unknown;
  SetHeaders?: unknown;
  DeleteHeaders?: unknown;
}

function parseResponse(value: string | undefined): ReturnedResponse | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as { Response?: unknown };
    return typeof parsed?.Response === 'object' && parsed.Response !== null ? parsed.Response : undefined;
  } catch {
    return undefined;
  }
}

/** custom_middleware.response: on the upstream's answer. */
export const responsePluginsStep: StepDescriptor = {
  name: 'js-response',
  enabledFor: (api) => api.plugins !== undefined,
  build: (api, services) => {
    const step = responsePlugins(api, services);
    return step ? { response: step } : {};
  },
};
