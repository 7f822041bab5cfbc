// gw_step_duration_seconds as Prometheus reads it: the hand-kept histogram formatted by prom-client's registry
// like one of its own (cumulative buckets, +Inf, sum and count per step).
import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from './metrics.ts';

describe('gw_step_duration_seconds', () => {
  it('exposes each step as a cumulative histogram', async () => {
    const metrics = new GatewayMetrics();
    const auth = metrics.stepTimer('auth-token');
    auth(0.000005);
    auth(0.00003);
    auth(7);
    metrics.stepTimer('upstream')(0.0001);
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE gw_step_duration_seconds histogram');
    expect(text).toContain('gw_step_duration_seconds_bucket{step="auth-token",le="0.00001"} 1');
    expect(text).toContain('gw_step_duration_seconds_bucket{step="auth-token",le="0.00005"} 2');
    expect(text).toContain('gw_step_duration_seconds_bucket{step="auth-token",le="5"} 2');
    expect(text).toContain('gw_step_duration_seconds_bucket{step="auth-token",le="+Inf"} 3');
    expect(text).toContain('gw_step_duration_seconds_count{step="auth-token"} 3');
    expect(text).toMatch(/gw_step_duration_seconds_sum\{step="auth-token"\} 7\.0000\d+/);
    expect(text).toContain('gw_step_duration_seconds_bucket{step="upstream",le="0.0001"} 1');
    expect(text).toContain('gw_step_duration_seconds_bucket{step="upstream",le="0.00005"} 0');
  });

  it('gives one series per step name, however many APIs run the step', async () => {
    const metrics = new GatewayMetrics();
    metrics.stepTimer('version')(0.001);
    metrics.stepTimer('version')(0.001);
    expect(await metrics.registry.metrics()).toContain('gw_step_duration_seconds_count{step="version"} 2');
  });
});
