// The gateway's request counters follow the loaded APIs: the series of an API deleted since are dropped at the next
// reload, so a gateway whose APIs come and go does not grow its registry (and every scrape) for ever.
import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from './metrics.ts';

describe('GatewayMetrics.retainApis', () => {
  it("drops the request series of APIs no longer loaded and keeps counting the others'", async () => {
    const metrics = new GatewayMetrics();
    for (let i = 0; i < 100; i++) metrics.request(`gone-${i}`, 200);
    metrics.request('kept', 200);
    metrics.request('kept', 404);
    metrics.retainApis(new Set(['kept']));
    metrics.request('kept', 200);
    const text = await metrics.registry.getSingleMetricAsString('gw_requests_total');
    expect(text).not.toContain('gone-');
    expect(text).toContain('gw_requests_total{api_id="kept",code="200"} 2');
    expect(text).toContain('gw_requests_total{api_id="kept",code="404"} 1');
  });
});
