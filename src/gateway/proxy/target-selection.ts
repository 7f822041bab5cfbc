// Which upstream a request goes to: the version's override_target when it has one, else, for an API with load
// balancing (Classic proxy.enable_load_balancing + target_list, OAS upstream.loadBalancing), the next target round
// robin, else the API's target. Round robin as Tyk Gateway does it: one counter per API (per compiled route, so a
// reload starts again at the first target), position = counter mod the number of targets, starting at the first;
// a target listed twice (or, in OAS, with weight 2) gets twice the share. Per gateway process.
// With check_host_against_uptime_tests (OAS skipUnavailableHosts), a target whose host the uptime tests have down
// (../uptime/host-checker.ts) is skipped by walking forward from the chosen position, as Tyk does; every target
// down: undefined (the caller answers Tyk's 503 `all hosts are down`).
import type { ApiSpec } from '../definition/api-spec.ts';
import type { UpstreamTarget, VersionSpec } from '../definition/version-spec.ts';
import { hostKey } from '../definition/uptime.ts';
import type { HostHealth } from '../uptime/host-checker.ts';

export type TargetSelector = (version: VersionSpec) => UpstreamTarget | undefined;

export const ALL_HOSTS_DOWN = 'all hosts are down';

const selectors = new WeakMap<ApiSpec, TargetSelector>();

/** The API's one selector (one round-robin counter), shared by every step that sends to the upstream. */
export function targetSelectorOf(spec: ApiSpec, health?: HostHealth): TargetSelector {
  let selector = selectors.get(spec);
  if (!selector) selectors.set(spec, (selector = targetSelector(spec, health)));
  return selector;
}

export function targetSelector(spec: ApiSpec, health?: HostHealth): TargetSelector {
  const targets = spec.loadBalancedTargets && spec.loadBalancedTargets.length > 0 ? spec.loadBalancedTargets : undefined;
  const checked = spec.uptime?.skipDownHosts && health ? health : undefined;
  if (checked) {
    const list = targets ?? [spec.target];
    const hosts = list.map((target) => hostKey(new URL(target.origin)));
    let counter = 0;
    return (version) => {
      if (version.overrideTarget) return version.overrideTarget;
      const start = counter;
      counter = (counter + 1) % list.length;
      for (let i = 0; i < list.length; i++) {
        const index = (start + i) % list.length;
        if (!checked.isDown(hosts[index]!)) return list[index];
      }
      return undefined;
    };
  }
  if (!targets) return (version) => version.overrideTarget ?? spec.target;
  let counter = 0;
  return (version) => {
    if (version.overrideTarget) return version.overrideTarget;
    const target = targets[counter % targets.length]!;
    counter = (counter + 1) % targets.length;
    return target;
  };
}
