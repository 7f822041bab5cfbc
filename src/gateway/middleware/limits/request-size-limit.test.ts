// The request size limit step through the in-process pipeline: a body over the endpoint's size_limits is refused
// 413 `Request is too large` (Tyk Gateway's message) before the upstream sees it; one at the limit is forwarded whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('request size limit step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [classicDefinition('sized', { extended_paths: { size_limits: [{ path: '/small', method: 'POST', size_limit: 10 }] } })],
    });
  });
  afterAll(() => harness.close());

  it('refuses a body over the limit with 413', async () => {
    const refused = await harness.request({ method: 'POST', path: '/sized/small', body: '12345678901' });
    expect([refused.status, JSON.parse(refused.body)]).toEqual([413, { error: 'Request is too large' }]);
    expect(refused.upstream).toBeUndefined();
  });

  it('forwards a body at the limit, and any size to other endpoints', async () => {
    expect((await harness.request({ method: 'POST', path: '/sized/small', body: '1234567890' })).upstream?.body).toBe('1234567890');
    expect((await harness.request({ method: 'POST', path: '/sized/large', body: 'x'.repeat(100) })).upstream?.body).toHaveLength(100);
  });
});
