// The response cache step through the in-process pipeline (embedded store): a cached endpoint's second GET is
// answered from the cache with X-Gw-Cached-Response: 1 and the upstream's body, without calling the upstream;
// other endpoints and other methods always reach it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('response cache step', () => {
  let harness: PipelineHarness;
  let served = 0;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [classicDefinition('cached', { cache_options: { enable_cache: true, cache_timeout: 60 }, extended_paths: { cache: ['/items'] } })],
      upstream: () => ({ body: `answer ${++served}` }),
    });
  });
  afterAll(() => harness.close());

  it("answers the second GET from the cache: the first answer's body, the upstream not called", async () => {
    const first = await harness.request({ path: '/cached/items' });
    expect(first.body).toBe('answer 1');
    expect(first.headers['x-gw-cached-response']).toBeUndefined();
    const second = await harness.request({ path: '/cached/items' });
    expect(second.body).toBe('answer 1');
    expect(second.headers['x-gw-cached-response']).toBe('1');
    expect(second.upstream).toBeUndefined();
  });

  it('never caches an endpoint it does not name', async () => {
    const before = served;
    await harness.request({ path: '/cached/other' });
    const again = await harness.request({ path: '/cached/other' });
    expect(again.upstream?.path).toBe('/other');
    expect(served).toBe(before + 2);
  });
});
