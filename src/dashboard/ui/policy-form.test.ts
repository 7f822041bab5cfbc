// The policy form's inputs read from and written into a Tyk policy: limits, per-API limits, allowed_urls, and the
// fields the form does not show kept.
import { describe, expect, it } from 'vitest';
import { noLimits, parseAllowedUrls, policyInputsOf, policyOf } from './policy-form.ts';

describe('policy form', () => {
  const stored = {
    id: 'gold',
    name: 'Gold',
    state: 'active',
    key_expires_in: 3600,
    rate: 10,
    per: 1,
    quota_max: 1000,
    quota_renewal_rate: 86400,
    throttle_interval: 2,
    throttle_retry_limit: 3,
    meta_data: { team: 'a' },
    access_rights: {
      orders: {
        api_id: 'orders',
        api_name: 'Orders',
        versions: ['v1'],
        allowed_urls: [{ url: '/users/{id}', methods: ['GET', 'PUT'] }, { url: '/health' }],
        limit: { rate: 5, per: 1 },
      },
    },
    tags: ['a', 'b'],
  };

  it('reads every input, allowed_urls as lines', () => {
    const inputs = policyInputsOf(stored);
    expect(inputs).toMatchObject({
      name: 'Gold',
      keyExpiresIn: '3600',
      limits: { rate: '10', per: '1', quota_max: '1000', quota_renewal_rate: '86400', throttle_interval: '2', throttle_retry_limit: '3' },
      tags: 'a, b',
    });
    expect(inputs.access).toEqual([
      { api_id: 'orders', api_name: 'Orders', limit: { ...noLimits(), rate: '5', per: '1' }, allowedUrls: '/users/{id} GET,PUT\n/health' },
    ]);
  });

  it('writes the inputs back unchanged, keeping what the form does not show', () => {
    expect(policyOf(policyInputsOf(stored), stored)).toEqual({
      ...stored,
      access_rights: {
        orders: {
          ...stored.access_rights.orders,
          allowed_urls: [
            { url: '/users/{id}', methods: ['GET', 'PUT'] },
            { url: '/health', methods: [] },
          ],
        },
      },
    });
  });

  it('drops a cleared limit and an emptied path list; a non-number is sent as typed for the dashboard to refuse', () => {
    const inputs = policyInputsOf(stored);
    inputs.limits.quota_max = '';
    inputs.limits.rate = 'ten';
    inputs.access[0]!.allowedUrls = '';
    inputs.access[0]!.limit = noLimits();
    const policy = policyOf(inputs, stored);
    expect(policy).not.toHaveProperty('quota_max');
    expect(policy.rate).toBe('ten');
    expect(policy.access_rights).toEqual({ orders: { api_id: 'orders', api_name: 'Orders', versions: ['v1'] } });
  });

  it('parses methods separated by commas or spaces, upper-cased', () => {
    expect(parseAllowedUrls(' /a get, post \n\n/b')).toEqual([
      { url: '/a', methods: ['GET', 'POST'] },
      { url: '/b', methods: [] },
    ]);
  });
});
