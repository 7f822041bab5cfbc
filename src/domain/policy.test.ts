import { describe, expect, it } from 'vitest';
import { Policy } from './policy.ts';

describe('Policy', () => {
  it('accepts the documented policy object', () => {
    const policy = {
      name: 'gold',
      state: 'active',
      access_rights: { abc: { api_id: 'abc', api_name: 'httpbin', versions: ['Default'], allowed_urls: [{ url: '/get', methods: ['GET'] }] } },
      rate: 10,
      per: 60,
      quota_max: -1,
      quota_renewal_rate: 3600,
      throttle_interval: 0.5,
      throttle_retry_limit: 3,
      tags: ['Gold'],
      meta_data: { user: 'u-1' },
      key_expires_in: 86400,
    };
    expect(Policy.parse(policy)).toEqual(policy);
  });

  it('rejects a quota_max that is neither -1 nor positive, naming the field', () => {
    const result = Policy.safeParse({ name: 'p', quota_max: 0 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['quota_max'], message: 'quota_max must be -1 (unlimited) or a positive integer' });
    expect(Policy.safeParse({ name: 'p', quota_max: 5 }).success).toBe(true);
  });

  it('rejects an unknown state', () => {
    expect(Policy.safeParse({ name: 'p', state: 'paused' }).success).toBe(false);
  });
});
