// The API-wide rate limit (global_rate_limit) through the in-process pipeline: every client of the API together,
// keyless ones included; over it 429 `API Rate Limit Exceeded` (Tyk Gateway's message).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('API rate limit step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({ apis: [classicDefinition('shared', { global_rate_limit: { rate: 2, per: 3600 } }), classicDefinition('free')] });
  });
  afterAll(() => harness.close());

  it('refuses the third request within the window, whichever client sends it; other APIs are not limited', async () => {
    expect((await harness.request({ path: '/shared/a', clientAddress: '10.0.0.1' })).status).toBe(200);
    expect((await harness.request({ path: '/shared/b', clientAddress: '10.0.0.2' })).status).toBe(200);
    const refused = await harness.request({ path: '/shared/c', clientAddress: '10.0.0.3' });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ error: 'API Rate Limit Exceeded' });
    expect(refused.upstream).toBeUndefined();
    expect((await harness.request({ path: '/free/a' })).status).toBe(200);
  });
});
