// gRPC plugins' request hooks (custom_middleware with driver grpc: pre, post_key_auth, post) as pipeline steps, at
// the JavaScript hooks' places: for each hook in order the request (body read up to grpc_send_max_size) goes to the
// plugin server as a coprocess Object (Pre, PostKeyAuth, Post; the session and its meta data for the last two), and
// what comes back is applied (coprocess-request.ts). A plugin server that is down, errs, times out or answers
// something unreadable fails this request only: 500 `Middleware error`, Tyk Gateway's answer (the reason is logged).
import { DefinitionError, type ApiSpec } from '../../definition/api-spec.ts';
import type { GrpcHook, GrpcPluginsSpec } from '../../definition/plugin-types.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { writeError } from '../../pipeline/error-reply.ts';
import { withRequestBody } from '../../pipeline/request-body.ts';
import { respond } from '../../pipeline/response-phase.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { PluginMessages } from '../plugin-messages.ts';
import { sessionOf } from '../plugin-session.ts';
import { DEFAULT_MAX_BYTES } from './coprocess-client.ts';
import { HookType, type CoprocessObject } from './coprocess-messages.ts';
import { applyCoprocessRequest, coprocessRequest, coprocessSession, coprocessSpec } from './coprocess-request.ts';
import type { DispatcherClient } from './dispatcher-client.ts';

type RequestHookName = 'pre' | 'postKeyAuth' | 'post';

const HOOK_TYPES: Record<RequestHookName, number> = { pre: HookType.Pre, postKeyAuth: HookType.PostKeyAuth, post: HookType.Post };

/** The gateway's plugin server client, or the refusal of an API with gRPC plugins on a gateway without coprocess. */
export function dispatcherFor(services: PipelineServices): DispatcherClient {
  if (!services.coprocess)
    throw new DefinitionError('custom_middleware.driver: grpc plugins need the gateway option coprocess_options (enable_coprocess and coprocess_grpc_server)');
  return services.coprocess;
}

/** The most bytes of a request body a gRPC plugin is given (grpc_send_max_size, else gRPC's 4 MiB). */
export function grpcBodyLimit(services: PipelineServices): number {
  return services.config.coprocess_options.grpc_send_max_size || DEFAULT_MAX_BYTES;
}

function grpcRequestHook(name: RequestHookName, plugins: GrpcPluginsSpec, spec: ApiSpec, services: PipelineServices): Step {
  const client = dispatcherFor(services);
  const specMap = coprocessSpec(spec, plugins);
  const hide = services.config.hide_generator_header;
  const withSession = name !== 'pre';
  return (ctx) =>
    withRequestBody(ctx, grpcBodyLimit(services), hide, async () => {
      for (const hook of plugins[name]) if (await runHook(ctx, hook)) return true;
      return false;
    });

  async function runHook(ctx: ProxyContext, hook: GrpcHook): Promise<boolean> {
    const session = withSession ? sessionOf(ctx) : undefined;
    const object: CoprocessObject = {
      hook_type: HOOK_TYPES[name],
      hook_name: hook.name,
      request: coprocessRequest(ctx, hook),
      spec: specMap,
      ...(session ? { session: coprocessSession(session), metadata: coprocessSession(session).metadata ?? {} } : {}),
    };
    const answer = await client.dispatch(object);
    if (!answer.ok || !answer.object.request) {
      const reason = answer.ok ? 'the answer has no request' : answer.reason;
      services.log.error({ api_id: spec.id, plugin: hook.name, hook: name, reason }, 'gRPC plugin failed');
      writeError(ctx.req, ctx.res, 500, PluginMessages.responseFailed, { hideGenerator: hide });
      return true;
    }
    const applied = applyCoprocessRequest(ctx, answer.object.request);
    if (applied.kind === 'continue') return false;
    if (applied.kind === 'error') writeError(ctx.req, ctx.res, applied.status, applied.message, { hideGenerator: hide, headers: applied.headers });
    else {
      const headers = Object.fromEntries(Object.entries(applied.headers).map(([header, value]) => [header.toLowerCase(), value]));
      respond(ctx.res, { status: applied.status, headers: { ...headers, 'content-length': Buffer.byteLength(applied.body) }, origin: 'mock' }, applied.body);
    }
    return true;
  }
}

function hookStep(name: RequestHookName, stepName: string): StepDescriptor {
  return {
    name: stepName,
    enabledFor: (api) => (api.grpcPlugins?.[name].length ?? 0) > 0,
    build: (api, services) => ({ request: grpcRequestHook(name, api.grpcPlugins!, api, services) }),
  };
}

/** custom_middleware.pre (driver grpc): after CORS, before versions, authentication and limits. */
export const grpcPreStep = hookStep('pre', 'grpc-pre');
/** custom_middleware.post_key_auth (driver grpc): after authentication, before access rights and limits. */
export const grpcPostKeyAuthStep = hookStep('postKeyAuth', 'grpc-post-key-auth');
/** custom_middleware.post (driver grpc): the last request step before the upstream. */
export const grpcPostStep = hookStep('post', 'grpc-post');
