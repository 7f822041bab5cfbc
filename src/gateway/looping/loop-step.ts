// Internal looping, Tyk Gateway's `tyk://` (its DummyProxyHandler's loop dispatch): the step after this API's own
// request steps, before anything of its upstream side (tunnel, cache, breaker, recording). A request whose URL rewrite produced a tyk:// URL (ctx.loopUrl), or any request of an API whose
// proxy.target_url is one (`tyk://<api>[/base]`: every request forwarded in memory, with its own path and query),
// runs again, whole, through the named API's pipeline (proxy/handler.ts loop) instead of going to the upstream:
// that API's authentication, limits and transforms apply to the same client request (headers and body), and its
// upstream answers. No network hop and no header carries the loop: its state lives on the request's context only,
// so nothing internal reaches an upstream or a client.
//
// As Tyk answers: a name no loaded API answers to, 500 `Can't detect loop target` (for a target_url,
// `Couldn't detect target`); more loops than the request's limit (the first loop_limit > 0 given, else 5),
// 500 `Loop level too deep. Found more than <limit> loops in single request`. gw caps loop_limit at 100
// (a bounded depth; Tyk has no cap).
import type { ApiSpec } from '../definition/api-spec.ts';
import type { LoopState, ProxyContext, Step } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { DEFAULT_LOOP_LIMIT, parseLoopUrl, type LoopUrl } from './loop-url.ts';
import { anyVersion, type StepDescriptor } from '../pipeline/step.ts';

export const MAX_LOOP_LIMIT = 100;
export const LoopMessages = {
  targetUnknown: "Can't detect loop target",
  redirectTargetUnknown: "Couldn't detect target",
  tooDeep: (limit: number) => `Loop level too deep. Found more than ${limit} loops in single request`,
} as const;

/** The loop step of an API with a tyk:// rewrite target or target_url (proxy/compiled-api.ts adds it). */
export function internalLoop(spec: ApiSpec, services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  const proxyLoop = spec.loopTarget ? parseLoopUrl(spec.loopTarget) : undefined;
  return (ctx) => {
    let url: LoopUrl | undefined;
    let unknown: string = LoopMessages.targetUnknown;
    if (ctx.loopUrl !== undefined) url = parseLoopUrl(ctx.loopUrl);
    else if (proxyLoop) {
      url = forwardedUrl(proxyLoop, ctx, spec.stripListenPath);
      unknown = LoopMessages.redirectTargetUnknown;
    } else return false;
    if (!url) {
      writeError(ctx.req, ctx.res, 500, unknown, { hideGenerator });
      return true;
    }
    const state = nextState(ctx.loop, url);
    if (state.depth > state.limit) {
      writeError(ctx.req, ctx.res, 500, LoopMessages.tooDeep(state.limit), { hideGenerator });
      return true;
    }
    if (!services.loop?.(ctx, url, state)) {
      writeError(ctx.req, ctx.res, 500, unknown, { hideGenerator });
      return true;
    }
    return true;
  };
}

/** The next loop's state: one level deeper; the first loop_limit given sticks; check_limits as this loop says; the UDG call count shared. */
export function nextState(prior: LoopState | undefined, url: LoopUrl): LoopState {
  const given = prior?.limitGiven === true;
  const limit = given ? prior.limit : url.loopLimit !== undefined ? Math.min(url.loopLimit, MAX_LOOP_LIMIT) : (prior?.limit ?? DEFAULT_LOOP_LIMIT);
  return {
    depth: (prior?.depth ?? 0) + 1,
    limit,
    checkLimits: url.checkLimits === true,
    limitGiven: given || url.loopLimit !== undefined,
    ...(prior?.udgCalls ? { udgCalls: prior.udgCalls } : {}),
  };
}

/** target_url tyk://<api>[/base]: the request's own path (listen path stripped when strip_listen_path) and query. */
function forwardedUrl(base: LoopUrl, ctx: ProxyContext, strip: boolean): LoopUrl {
  const own = ctx.upstreamPath ?? (strip ? ctx.relPath : ctx.path) + ctx.query;
  const mark = own.indexOf('?');
  const path = mark === -1 ? own : own.slice(0, mark);
  const prefix = base.path === '/' ? '' : base.path.replace(/\/+$/, '');
  // The target URL's own controls (method, loop_limit, check_limits) apply; the request's query is never read for them.
  return { ...base, path: `${prefix}${path}` || '/', query: mark === -1 ? '' : own.slice(mark) };
}

// A loop hands the request to another API before anything of this one's upstream side (tunnel, cache, breaker,
// recording) takes it: the target API answers, records and caches it.
export const internalLoopStep: StepDescriptor = {
  name: 'internal-loop',
  enabledFor: (api) => api.loopTarget !== undefined || anyVersion(api, (v) => v.urlRewrites.some((rule) => rule.loops)),
  build: (api, services) => ({ request: internalLoop(api, services) }),
};
