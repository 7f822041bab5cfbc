// Which upstream a request goes to: the version's override_target when it has one, else, for an API with load
// balancing (Classic proxy.enable_load_balancing + target_list, OAS upstream.loadBalancing), the next target round
// robin, else the API's target. Round robin as Tyk Gateway does it: one counter per API (per compiled route, so a
// reload starts again at the first target), position = counter mod the number of targets, starting at the first;
// a target listed twice (or, in OAS, with weight 2) gets twice the share. Per gateway process.
import type { ApiSpec, UpstreamTarget, VersionSpec } from '../definition/api-spec.ts';

export type TargetSelector = (version: VersionSpec) => UpstreamTarget;

const selectors = new WeakMap<ApiSpec, TargetSelector>();

/** The API's one selector (one round-robin counter), shared by every step that sends to the upstream. */
export function targetSelectorOf(spec: ApiSpec): TargetSelector {
  let selector = selectors.get(spec);
  if (!selector) selectors.set(spec, (selector = targetSelector(spec)));
  return selector;
}

export function targetSelector(spec: ApiSpec): TargetSelector {
  const targets = spec.loadBalancedTargets;
  if (!targets || targets.length === 0) return (version) => version.overrideTarget ?? spec.target;
  let counter = 0;
  return (version) => {
    if (version.overrideTarget) return version.overrideTarget;
    const target = targets[counter % targets.length]!;
    counter = (counter + 1) % targets.length;
    return target;
  };
}
