// A pipeline step as the compiler sees it: a descriptor with a name, whether an API needs it and how to build it
// for that API — Tyk Gateway's middleware interface (`Name()`, `EnabledForSpec()`, `ProcessRequest`), with the
// processing built once per API instead of dispatched per request. Each step's file exports its descriptor next to
// its implementation; proxy/step-order.ts lists them in request order, and proxy/compiled-api.ts builds the enabled
// ones when an API is loaded. The name labels the step in logs and in `gw_step_duration_seconds{step}`.
import type { ApiSpec } from '../definition/api-spec.ts';
import type { VersionSpec } from '../definition/version-spec.ts';
import type { ResponseStep, Step } from './contract.ts';
import type { PipelineServices } from './services.ts';

/** What a step adds to an API's pipeline: a request step, a response step, or both. */
export interface StepParts {
  /** Runs in the request phase, at the descriptor's place in the order. */
  readonly request?: Step;
  /** Joins the response phase; response steps run in the same order as the descriptors that bring them. */
  readonly response?: ResponseStep;
  /** The response step runs before every other one (it must see the upstream's head before any step edits it). */
  readonly responseFirst?: true;
}

export interface StepDescriptor {
  /** Short and stable (kebab-case): a metric label value and a log field. */
  readonly name: string;
  /** Whether this API's pipeline includes the step; false costs the API's requests nothing. */
  enabledFor(api: ApiSpec, services: PipelineServices): boolean;
  /** Called once per API when the routing table is built, only when enabledFor said yes. */
  build(api: ApiSpec, services: PipelineServices): StepParts;
}

/** Some version of the API has what `has` looks for (most steps are needed when any version configures them). */
export function anyVersion(api: ApiSpec, has: (version: VersionSpec) => unknown): boolean {
  for (const version of api.versions.values()) if (has(version)) return true;
  return false;
}
