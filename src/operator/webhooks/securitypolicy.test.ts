import { describe, expect, it } from 'vitest';
import { describeFieldError } from './field-errors.ts';
import { applyPatch } from './json-patch.ts';
import { defaultSecurityPolicy, validateSecurityPolicy } from './securitypolicy.ts';

const context = { namespace: 'team-a' };
const base = { name: 'gold', state: 'active', access_rights_array: [{ name: 'httpbin' }] };

function messages(spec: unknown): string[] {
  return validateSecurityPolicy(spec, context).errors.map(describeFieldError);
}

function warnings(spec: unknown): string[] {
  return validateSecurityPolicy(spec, context).warnings;
}

describe('defaultSecurityPolicy', () => {
  it('turns the legacy fields into the state they meant: is_inactive -> deny, active: false -> draft', () => {
    expect(defaultSecurityPolicy({ name: 'p', is_inactive: true, active: true })).toEqual([{ op: 'add', path: '/spec/state', value: 'deny' }]);
    expect(defaultSecurityPolicy({ name: 'p', active: false })).toEqual([{ op: 'add', path: '/spec/state', value: 'draft' }]);
    expect(applyPatch({ spec: { name: 'p', active: false } }, defaultSecurityPolicy({ name: 'p', active: false })).spec).toEqual({
      name: 'p',
      active: false,
      state: 'draft',
    });
  });

  it('leaves a policy with a state, or without legacy fields, as written (state defaults to active)', () => {
    expect(defaultSecurityPolicy({ name: 'p', state: 'active', is_inactive: true })).toEqual([]);
    expect(defaultSecurityPolicy({ name: 'p' })).toEqual([]);
    expect(defaultSecurityPolicy({ name: 'p', active: true })).toEqual([]);
    expect(defaultSecurityPolicy(undefined)).toEqual([]);
  });
});

describe('validateSecurityPolicy', () => {
  it("accepts a plain policy, with limits as gw's design describes them", () => {
    expect(validateSecurityPolicy(base, context)).toEqual({ errors: [], warnings: [] });
    const limited = { ...base, rate: 100, per: 60, quota_max: 1000, quota_renewal_rate: 3600, throttle_interval: 1, throttle_retry_limit: 3 };
    expect(validateSecurityPolicy(limited, context)).toEqual({ errors: [], warnings: [] });
    const unlimited = { ...base, rate: -1, per: -1, quota_max: -1, quota_renewal_rate: -1, throttle_interval: -1, throttle_retry_limit: -1 };
    expect(validateSecurityPolicy(unlimited, context)).toEqual({ errors: [], warnings: [] });
    expect(messages({ ...base, rate: 0, per: 0 })).toEqual([]);
  });

  it('names spec.state and the allowed values', () => {
    expect(messages({ ...base, state: 'paused' })).toEqual(['spec.state: Unsupported value: "paused": supported values: "active", "draft", "deny"']);
  });

  it('needs a positive period for a rate', () => {
    expect(messages({ ...base, rate: 10 })).toEqual([
      'spec.per: Required value: the rate limit period in seconds is needed when rate is set (rate requests per `per` seconds); use rate 0 or -1 for no rate limit',
    ]);
    expect(messages({ ...base, rate: 10, per: 0 })[0]).toMatch(/^spec\.per: Invalid value: 0: must be a positive number of seconds when rate is set/);
    expect(messages({ ...base, rate: -2 })).toEqual(['spec.rate: Invalid value: -2: must be at least -1']);
  });

  it('takes quota_max -1 or positive, and a quota needs its renewal period', () => {
    expect(messages({ ...base, quota_max: 0 })).toEqual(['spec.quota_max: Invalid value: 0: quota_max must be -1 (unlimited) or a positive integer']);
    expect(messages({ ...base, quota_max: 100 })).toEqual([
      'spec.quota_renewal_rate: Required value: the quota period in seconds (3600 hourly, 86400 daily) is needed when quota_max is set; use quota_max -1 for no quota',
    ]);
    expect(messages({ ...base, quota_max: 100, quota_renewal_rate: 0 })[0]).toMatch(/^spec\.quota_renewal_rate: Invalid value: 0: must be positive/);
  });

  it('warns (does not refuse) when only one of the throttle fields enables throttling; negatives disable it quietly', () => {
    expect(warnings({ ...base, rate: 10, per: 1, throttle_interval: 0, throttle_retry_limit: 5 })).toEqual([
      'spec.throttle_interval: throttling disabled: throttle_interval is 0 (throttling needs throttle_interval > 0 and throttle_retry_limit > 0; -1 disables it)',
    ]);
    expect(warnings({ ...base, throttle_interval: 2 })).toEqual([
      'spec.throttle_retry_limit: throttling disabled: throttle_retry_limit is not set (throttling needs throttle_interval > 0 and throttle_retry_limit > 0; -1 disables it)',
    ]);
    expect(messages({ ...base, throttle_interval: 0, throttle_retry_limit: 5 })).toEqual([]);
    expect(warnings({ ...base, throttle_interval: -1, throttle_retry_limit: -1 })).toEqual([]);
    expect(warnings({ ...base, throttle_interval: 0, throttle_retry_limit: 0 })).toEqual([]);
    expect(messages({ ...base, throttle_retry_limit: 1.5 })).toEqual(['spec.throttle_retry_limit: Invalid value: 1.5: must be an integer']);
  });

  it('checks each access right the same way, naming the entry', () => {
    const spec = {
      ...base,
      access_rights_array: [{ name: 'a', limit: { rate: 5, quota_max: 10, quota_renewal_rate: 60, throttle_retry_limit: 3 } }],
      access_rights: { 'api-1': { api_id: 'api-1', limit: { quota_max: 5 } } },
    };
    expect(validateSecurityPolicy(spec, context)).toEqual({
      errors: [
        expect.objectContaining({ field: 'spec.access_rights_array[0].limit.per', type: 'Required' }),
        expect.objectContaining({ field: 'spec.access_rights[api-1].limit.quota_renewal_rate', type: 'Required' }),
      ],
      warnings: [expect.stringMatching(/^spec\.access_rights_array\[0\]\.limit\.throttle_interval: throttling disabled: throttle_interval is not set/)],
    });
  });

  it("refuses an API granted twice (the namespace defaults to the policy's own, the kind to ApiDefinition)", () => {
    expect(
      messages({ ...base, access_rights_array: [{ name: 'httpbin' }, { name: 'other' }, { name: 'httpbin', namespace: 'team-a', kind: 'ApiDefinition' }] }),
    ).toEqual([
      'spec.access_rights_array[2]: Duplicate value: "ApiDefinition team-a/httpbin": already granted by spec.access_rights_array[0]; merge the two entries (versions, allowed_urls, limit)',
    ]);
    expect(
      messages({
        ...base,
        access_rights_array: [{ name: 'httpbin' }, { name: 'httpbin', namespace: 'team-b' }, { name: 'httpbin', kind: 'GwOasApiDefinition' }],
      }),
    ).toEqual([]);
  });

  it('needs each access right to name an API resource by a valid name and namespace', () => {
    expect(messages({ ...base, access_rights_array: [{ namespace: 'x' }] })).toEqual([
      'spec.access_rights_array[0].name: Required value: must be set (a string)',
    ]);
    expect(messages({ ...base, access_rights_array: [{ name: 'Http_Bin', namespace: 'Team A' }] })).toEqual([
      'spec.access_rights_array[0].name: Invalid value: "Http_Bin": must be the name of an API resource: lower case letters, digits, - and . (at most 253)',
      'spec.access_rights_array[0].namespace: Invalid value: "Team A": must be a namespace name (lower case letters, digits and -, at most 63), or empty for the policy\'s own',
    ]);
    expect(messages({ ...base, access_rights_array: [{ name: 'events', kind: 'GwStreamsApiDefinition' }] })).toEqual([]);
    expect(messages({ ...base, access_rights_array: [{ name: 'events', kind: 'GwMcpProxyDefinition' }] })).toEqual([
      'spec.access_rights_array[0].kind: Unsupported value: "GwMcpProxyDefinition": supported values: "ApiDefinition", "GwOasApiDefinition", "GwStreamsApiDefinition"',
    ]);
  });

  it('warns about legacy fields that state overrides, and access rights keyed by another id', () => {
    expect(warnings({ ...base, is_inactive: true, active: false })).toEqual([
      'spec.is_inactive: ignored: spec.state (active) overrides it; use state: deny to deactivate keys',
      'spec.active: ignored: spec.state (active) overrides it; use state: draft or deny',
    ]);
    expect(warnings({ ...base, access_rights: { 'api-1': { api_id: 'api-2' } } })).toEqual([
      'spec.access_rights[api-1].api_id: differs from its key "api-1": the gateway grants the API whose id is the key',
    ]);
  });

  it('needs a spec with a name', () => {
    expect(messages(undefined)).toEqual(['spec: Required value: a SecurityPolicy needs a spec']);
    expect(messages({ state: 'draft' })).toEqual(['spec.name: Required value: must be set (a string)']);
  });
});
