// The key limits step through the in-process pipeline (test/support/pipeline-harness.ts): a key's rate limit and
// quota, what a refused request is answered (Tyk's 429 and 403) and the X-RateLimit-* headers on every answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('key limits step', () => {
  let harness: PipelineHarness;
  const rights = { access_rights: { limited: { api_id: 'limited', versions: [] } } };
  beforeAll(async () => {
    harness = await PipelineHarness.start({ apis: [classicDefinition('limited', { use_keyless: false })] });
    await harness.addKey('rate-key-0001', { ...rights, rate: 2, per: 3600, quota_max: -1 });
    await harness.addKey('quota-key-001', { ...rights, rate: 1000, per: 1, quota_max: 2, quota_renewal_rate: 3600 });
  });
  afterAll(() => harness.close());

  const call = (key: string) => harness.request({ path: '/limited/x', headers: { authorization: key } });

  it('answers 429 Rate Limit Exceeded with Retry-After once the rate is spent, without calling the upstream', async () => {
    expect((await call('rate-key-0001')).status).toBe(200);
    expect((await call('rate-key-0001')).status).toBe(200);
    const refused = await call('rate-key-0001');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ error: 'Rate Limit Exceeded' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.upstream).toBeUndefined();
  });

  it('counts the quota down in X-RateLimit-Remaining, then answers 403 Quota exceeded', async () => {
    const first = await call('quota-key-001');
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    expect((await call('quota-key-001')).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await call('quota-key-001');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ error: 'Quota exceeded' });
  });
});
