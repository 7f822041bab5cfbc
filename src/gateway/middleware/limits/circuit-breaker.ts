// Circuit breakers (Classic extended_paths.circuit_breakers), per gateway process: the request step, placed just
// before the upstream call, answers 503 `Service temporarily unavailable.` (Tyk's message) while the
// endpoint's breaker is open; the response step reports the upstream's answer to the breaker (a 5xx, or the
// gateway's own 5xx for no answer — timeout, refused connection — is a failure; Tyk\'s rule). Transitions
// fire Tyk's events: BreakerTriggered + BreakerTripped when it trips, BreakerTriggered + BreakerReset when it
// closes (meta.circuit_event 0 / 1, Tyk's numbering), with the rule's path.
// State (circuit-breaker-state.ts) lives with the compiled API: every reload recompiles it, so breakers start closed.
// Must never: judge an answer the upstream did not give for an admitted request (mocks, cache hits, refusals before
// this step are not the upstream's).
import type { ApiSpec } from '../../definition/api-spec.ts';
import type { CircuitBreakerRule } from '../../definition/version-spec.ts';
import type { ProxyContext, ResponseStep, Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { CircuitBreakerState, type Admission, type BreakerTransition } from './circuit-breaker-state.ts';
import { requestEvent } from '../recording/request-event.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

interface Admitted {
  breaker: CircuitBreakerState;
  admission: Admission;
}

export function circuitBreakers(spec: ApiSpec, services: PipelineServices): { step: Step; response: ResponseStep } {
  const breakers = new Map<CircuitBreakerRule, CircuitBreakerState>();
  for (const version of spec.versions.values()) for (const rule of version.circuitBreakers ?? []) breakers.set(rule, new CircuitBreakerState(rule));
  const admitted = new WeakMap<ProxyContext, Admitted>();
  const hideGenerator = services.config.hide_generator_header;

  const announce = (ctx: ProxyContext, breaker: CircuitBreakerState, transition: BreakerTransition): void => {
    const message = transition === 'tripped' ? 'Breaker Tripped' : 'Breaker Reset';
    const meta = { circuit_event: transition === 'tripped' ? 0 : 1 };
    for (const type of ['BreakerTriggered', transition === 'tripped' ? 'BreakerTripped' : 'BreakerReset'] as const) {
      services.events.emit({ ...requestEvent(ctx, type, message, meta), path: breaker.rule.path });
    }
  };

  const step: Step = (ctx) => {
    const rule = endpointRule(ctx.version!.circuitBreakers, ctx);
    if (!rule) return false;
    const breaker = breakers.get(rule)!;
    const admission = breaker.admit(services.now(), (transition) => announce(ctx, breaker, transition));
    if (admission === undefined) {
      writeError(ctx.req, ctx.res, 503, Messages.breakerOpen, { hideGenerator });
      return true;
    }
    admitted.set(ctx, { breaker, admission });
    return false;
  };

  const response: ResponseStep = {
    name: 'circuit-breaker',
    head(ctx, head) {
      const entry = admitted.get(ctx);
      if (!entry) return;
      admitted.delete(ctx);
      entry.breaker.record(entry.admission, head.status >= 500, services.now(), (transition) => announce(ctx, entry.breaker, transition));
    },
  };
  return { step, response };
}

/** Its response step runs first: it judges the upstream's status before any other step edits the head. */
export const circuitBreakerStep: StepDescriptor = {
  name: 'circuit-breaker',
  enabledFor: (api) => anyVersion(api, (v) => v.circuitBreakers),
  build: (api, services) => {
    const breakers = circuitBreakers(api, services);
    return { request: breakers.step, response: breakers.response, responseFirst: true };
  },
};
