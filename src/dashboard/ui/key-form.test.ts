// The key page's inputs read from and written into a stored key: the fields the form does not show kept, the
// key's own limits only written without a policy, expiry in UTC.
import { describe, expect, it } from 'vitest';
import { expiresOf, expiryInput, keyInputsOf, keyOf } from './key-form.ts';

const stored = {
  alias: 'client-1',
  expires: 1893456000,
  apply_policies: ['p1'],
  rate: 100,
  per: 60,
  quota_max: -1,
  quota_remaining: 7,
  access_rights: { api1: { api_id: 'api1', versions: ['Default'] } },
  meta_data: { team: 'a' },
  is_inactive: false,
};

describe('key form', () => {
  it('reads the inputs, expiry as a UTC datetime-local value', () => {
    expect(keyInputsOf(stored)).toEqual({
      alias: 'client-1',
      expires: '2030-01-01T00:00',
      policies: ['p1'],
      limits: { rate: '100', per: '60', quota_max: '-1', quota_renewal_rate: '', throttle_interval: '', throttle_retry_limit: '' },
      inactive: false,
    });
    expect(expiryInput(0)).toBe('');
    expect(expiryInput(-1)).toBe('');
  });

  it('keeps the stored limits while a policy is applied, and the fields the form does not show', () => {
    const inputs = { ...keyInputsOf(stored), alias: 'renamed', limits: { ...keyInputsOf(stored).limits, rate: '1' }, inactive: true };
    expect(keyOf(inputs, stored)).toEqual({ ...stored, alias: 'renamed', is_inactive: true });
  });

  it("writes the key's own limits without a policy: emptied ones removed, a non-number sent as typed", () => {
    const inputs = { ...keyInputsOf(stored), policies: [], limits: { ...keyInputsOf(stored).limits, rate: '2', per: 'often', quota_max: '' }, expires: '' };
    const key = keyOf(inputs, stored);
    expect(key).toMatchObject({ apply_policies: [], rate: 2, per: 'often', expires: 0, access_rights: stored.access_rights, quota_remaining: 7 });
    expect('quota_max' in key).toBe(false);
  });

  it('reads a typed expiry as UTC and sends what is no date as typed', () => {
    expect(expiresOf('2030-01-01T00:00')).toBe(1893456000);
    expect(expiresOf('tomorrow')).toBe('tomorrow');
  });
});
