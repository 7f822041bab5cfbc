// Compiles an API into its pipeline, once, when the routing table is built: each step of step-order.ts that the API
// enables (StepDescriptor.enabledFor) is built for it, in that order, so a keyless API carries no authentication or
// rate-limit steps at all and an API without versions or endpoint lists skips those checks. Response steps join with
// the request steps that bring them (the key limits their X-RateLimit headers, CORS its headers, the circuit breaker
// its judgement of the upstream's status, first). Each request step carries its name and the timer of
// `gw_step_duration_seconds{step}` (metrics.ts), observed by the handler (handler.ts); with tracing on and the API's
// detailed_tracing, each runs inside its own span (pipeline/request-span.ts).
// The contract (context, step types, CompiledApi, descriptors) lives in ../pipeline/; this file only assembles.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { CompiledApi, ResponseStep, Step, StepTimer } from '../pipeline/contract.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { tracedStep } from '../pipeline/request-span.ts';
import { STEP_ORDER } from './step-order.ts';

export function compileRoute(spec: ApiSpec, services: PipelineServices): CompiledApi {
  const steps: Step[] = [];
  const stepNames: string[] = [];
  const stepTimers: StepTimer[] = [];
  const responseSteps: ResponseStep[] = [];
  // detailed_tracing: each request step inside its own span; otherwise the steps run as built, at no cost.
  const tracer = spec.analytics.detailedTracing ? services.tracer : undefined;
  for (const descriptor of STEP_ORDER) {
    if (!descriptor.enabledFor(spec, services)) continue;
    const parts = descriptor.build(spec, services);
    if (parts.request) {
      steps.push(tracer ? tracedStep(parts.request, descriptor.name, tracer) : parts.request);
      stepNames.push(descriptor.name);
      stepTimers.push(services.metrics.stepTimer(descriptor.name));
    }
    if (parts.response) {
      if (parts.responseFirst) responseSteps.unshift(parts.response);
      else responseSteps.push(parts.response);
    }
  }
  return {
    spec,
    listenPath: spec.listenPath,
    domain: spec.domain,
    exact: spec.listenPathExact === true,
    internal: spec.internal === true,
    steps,
    stepNames,
    stepTimers,
    responseSteps,
    log: services.log,
  };
}
