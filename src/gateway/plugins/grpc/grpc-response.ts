// gRPC plugins' response hooks (custom_middleware.response with driver grpc): a response step of the APIs that have
// them. For an upstream's answer it claims the body (up to grpc_recv_max_size) and sends each hook, in order, an
// Object (hook_type Response) with the request, the session and the response {status_code, raw_body, body,
// headers (first values), multivalue_headers}; what comes back replaces the answer as Tyk Gateway does: the headers
// rebuilt from multivalue_headers (from `headers` when the plugin changed that map instead), the body from raw_body
// (Content-Length recomputed), the status from status_code. A failure, or no response returned, answers 500
// `Middleware error` (Tyk's). Answers the gateway makes itself (errors, mocks) are not given to response hooks.
import type { ApiSpec } from '../../definition/api-spec.ts';
import type { GrpcPluginsSpec } from '../../definition/plugin-types.ts';
import type { ProxyContext, ResponseHead, ResponseStep } from '../../pipeline/contract.ts';
import { writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { canonicalHeader, validHeader } from '../mini-request.ts';
import { PluginMessages } from '../plugin-messages.ts';
import { sessionOf } from '../plugin-session.ts';
import { DEFAULT_MAX_BYTES } from './coprocess-client.ts';
import { HookType, type ResponseObject } from './coprocess-messages.ts';
import { coprocessRequest, coprocessSession, coprocessSpec } from './coprocess-request.ts';
import { dispatcherFor } from './grpc-request-hook.ts';

/** Headers the gateway frames itself: never copied from a plugin's answer. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection']);

function grpcResponse(plugins: GrpcPluginsSpec, spec: ApiSpec, services: PipelineServices): ResponseStep {
  const client = dispatcherFor(services);
  const specMap = coprocessSpec(spec, plugins);
  const hide = services.config.hide_generator_header;
  const fail = (ctx: ProxyContext): void => writeError(ctx.req, ctx.res, 500, PluginMessages.responseFailed, { hideGenerator: hide });

  async function rewrite(ctx: ProxyContext, head: ResponseHead, body: Buffer): Promise<Buffer | undefined> {
    let current = body;
    for (const hook of plugins.response) {
      const sent = responseObject(head, current);
      const session = sessionOf(ctx);
      const answer = await client.dispatch({
        hook_type: HookType.Response,
        hook_name: hook.name,
        request: { ...coprocessRequest(ctx, hook), raw_body: Buffer.alloc(0), body: '' },
        spec: specMap,
        response: sent,
        ...(session ? { session: coprocessSession(session), metadata: coprocessSession(session).metadata ?? {} } : {}),
      });
      const returned = answer.ok ? answer.object.response : undefined;
      if (!returned) {
        services.log.error({ api_id: spec.id, plugin: hook.name, reason: answer.ok ? 'no response returned' : answer.reason }, 'gRPC response plugin failed');
        fail(ctx);
        return undefined;
      }
      const headersChanged = !sameMap(returned.headers ?? {}, sent.headers);
      for (const name of Object.keys(head.headers)) if (!FRAMING.has(name)) delete head.headers[name];
      const rebuilt: [string, string[]][] = headersChanged
        ? Object.entries(returned.headers ?? {}).map(([name, value]) => [name, [value]])
        : (returned.multivalue_headers ?? []).map((header) => [header.key ?? '', header.values ?? []]);
      for (const [name, values] of rebuilt) {
        const lower = name.toLowerCase();
        const valid = values.filter((value) => validHeader(name, value));
        if (FRAMING.has(lower) || valid.length === 0) continue;
        head.headers[lower] = valid.length === 1 ? valid[0] : valid;
      }
      current = returned.raw_body ?? Buffer.alloc(0);
      const status = returned.status_code ?? 0;
      if (status >= 100 && status <= 599) head.status = status;
    }
    return current;
  }

  return {
    name: 'grpc response plugins',
    head: () => undefined,
    body: (ctx, head) =>
      head.origin === 'upstream'
        ? {
            maxBytes: services.config.coprocess_options.grpc_recv_max_size || DEFAULT_MAX_BYTES,
            rewrite: (body) => rewrite(ctx, head, body),
            tooLarge: () => fail(ctx),
          }
        : undefined,
  };
}

function responseObject(head: ResponseHead, body: Buffer): ResponseObject & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const multivalue: { key: string; values: string[] }[] = [];
  for (const [name, value] of Object.entries(head.headers)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [String(value)];
    const key = canonicalHeader(name);
    headers[key] = values[0] ?? '';
    multivalue.push({ key, values });
  }
  return { status_code: head.status, raw_body: body, body: body.toString('utf8'), headers, multivalue_headers: multivalue };
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}

/** custom_middleware.response (driver grpc): on the upstream's answer. */
export const grpcResponseStep: StepDescriptor = {
  name: 'grpc-response',
  enabledFor: (api) => (api.grpcPlugins?.response.length ?? 0) > 0,
  build: (api, services) => ({ response: grpcResponse(api.grpcPlugins!, api, services) }),
};
