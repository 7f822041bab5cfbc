import { describe, expect, it } from 'vitest';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { UpstreamTarget, VersionSpec } from '../definition/version-spec.ts';
import { targetSelector } from './target-selection.ts';

const target = (name: string): UpstreamTarget => ({ origin: `http://${name}:80`, host: name, basePath: '' });
const version = (overrideTarget?: UpstreamTarget): VersionSpec => ({ ...(overrideTarget ? { overrideTarget } : {}) }) as VersionSpec;
const spec = (loadBalancedTargets?: UpstreamTarget[]): ApiSpec =>
  ({ target: target('main'), ...(loadBalancedTargets ? { loadBalancedTargets } : {}) }) as ApiSpec;

describe('targetSelector', () => {
  it('answers the API target without load balancing, and the version override when there is one', () => {
    const next = targetSelector(spec());
    expect(next(version())!.host).toBe('main');
    expect(next(version(target('override')))!.host).toBe('override');
  });

  it('goes round robin over the balanced targets from the first, each selector with its own counter', () => {
    const targets = [target('a'), target('b'), target('c')];
    const next = targetSelector(spec(targets));
    expect(Array.from({ length: 7 }, () => next(version())!.host)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
    expect(targetSelector(spec(targets))(version())!.host).toBe('a');
  });

  it('lets a version override win without moving the counter', () => {
    const next = targetSelector(spec([target('a'), target('b')]));
    expect(next(version())!.host).toBe('a');
    expect(next(version(target('override')))!.host).toBe('override');
    expect(next(version())!.host).toBe('b');
  });

  it('with check_host_against_uptime_tests skips down hosts walking forward from the position; all down: undefined', () => {
    const down = new Set<string>();
    const health = { isDown: (host: string) => down.has(host) };
    const checked = (targets: UpstreamTarget[]): ApiSpec => ({ ...spec(targets), uptime: { checks: [], skipDownHosts: true } });
    const next = targetSelector(checked([target('a'), target('b'), target('c')]), health);
    down.add('b:80');
    expect(Array.from({ length: 4 }, () => next(version())!.host)).toEqual(['a', 'c', 'c', 'a']);
    down.add('a:80').add('c:80');
    expect(next(version())).toBeUndefined();
    const single = targetSelector(checked([]), health);
    expect(single(version())!.host).toBe('main');
    down.add('main:80');
    expect(single(version())).toBeUndefined();
    expect(targetSelector(spec([target('a')]), health)(version())!.host).toBe('a'); // not checked: never skipped
  });
});
