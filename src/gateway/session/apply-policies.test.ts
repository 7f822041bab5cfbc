import { describe, expect, it } from 'vitest';
import type { StoredPolicy } from '../store/store.ts';
import { applyPolicies } from './apply-policies.ts';

const policies = new Map<string, StoredPolicy>();
const lookup = (id: string) => policies.get(id);
const policy = (p: StoredPolicy) => policies.set(p.id, p);

policy({
  id: 'silver',
  name: 'silver',
  rate: 10,
  per: 60,
  quota_max: 100,
  quota_renewal_rate: 3600,
  access_rights: { a: { api_id: 'a', versions: ['v1'], allowed_urls: [{ url: '/get', methods: ['GET'] }] } },
  tags: ['s'],
  meta_data: { tier: 'silver', x: 1 },
});
policy({
  id: 'gold',
  name: 'gold',
  rate: 10,
  per: 10,
  quota_max: 1000,
  quota_renewal_rate: 60,
  throttle_interval: 1,
  throttle_retry_limit: 3,
  access_rights: { a: { api_id: 'a', versions: ['v2'], allowed_urls: [{ url: '/get', methods: ['POST'] }, { url: '/post' }] } },
  tags: ['g'],
  meta_data: { tier: 'gold' },
});
policy({ id: 'other-api', name: 'b', access_rights: { b: { api_id: 'b', versions: ['Default'] } } });
policy({ id: 'unlimited', name: 'u', quota_max: -1, rate: -1, per: -1, access_rights: { a: { api_id: 'a' } } });
policy({ id: 'denied', name: 'd', state: 'deny', access_rights: { a: { api_id: 'a' } } });
policy({ id: 'legacy-inactive', name: 'l', is_inactive: true, access_rights: { a: { api_id: 'a' } } });
policy({ id: 'draft', name: 'dr', state: 'draft', access_rights: { a: { api_id: 'a' } } });
policy({ id: 'quota-only', name: 'q', partitions: { quota: true }, quota_max: 5, quota_renewal_rate: 10, access_rights: { z: { api_id: 'z' } } });
policy({ id: 'per-api', name: 'pa', access_rights: { a: { api_id: 'a', limit: { rate: 1, per: 1, quota_max: 3 } } } });
policy({ id: 'org-x', name: 'ox', org_id: 'x', access_rights: { a: { api_id: 'a' } } });
policy({ id: 'gql-shallow', name: 'gs', max_query_depth: 2, access_rights: { g: { api_id: 'g', restricted_types: [{ name: 'User', fields: ['email'] }] } } });
policy({
  id: 'gql-deep',
  name: 'gd',
  max_query_depth: 5,
  access_rights: {
    g: {
      api_id: 'g',
      restricted_types: [
        { name: 'User', fields: ['phone'] },
        { name: 'Query', fields: ['*'] },
      ],
      disable_introspection: true,
    },
  },
});
policy({ id: 'gql-unlimited', name: 'gu', max_query_depth: -1, access_rights: { g: { api_id: 'g' } } });
policy({ id: 'gql-per-api', name: 'gp', max_query_depth: 9, access_rights: { g: { api_id: 'g', limit: { max_query_depth: 3 } } } });

const apply = (session: Parameters<typeof applyPolicies>[0]) => {
  const result = applyPolicies(session, lookup);
  if (!result.ok) throw new Error(result.error);
  return result.effective;
};

describe('applyPolicies', () => {
  it('uses the key itself when it names no policy', () => {
    const e = apply({ rate: 5, per: 1, quota_max: 10, access_rights: { a: { api_id: 'a', versions: ['Default'] } } });
    expect(e.access.get('a')).toMatchObject({ versions: ['Default'], scope: '', limits: { rate: 5, per: 1, quotaMax: 10 } });
  });

  it('unions ACLs, versions and allowed_urls; the highest rate and the highest quota win', () => {
    const e = apply({ apply_policies: ['silver', 'gold'] });
    const a = e.access.get('a')!;
    expect(a.versions).toEqual(['v1', 'v2']);
    expect(a.allowedUrls).toEqual([
      { url: '/get', methods: ['GET', 'POST'] },
      { url: '/post', methods: [] },
    ]);
    expect(a.limits).toMatchObject({ rate: 10, per: 10, quotaMax: 1000, quotaRenewalRate: 3600, throttleInterval: 1, throttleRetryLimit: 3 });
    expect(e.session).toMatchObject({ rate: 10, per: 10, quota_max: 1000, tags: ['s', 'g'], meta_data: { tier: 'gold', x: 1 } });
  });

  it('does not depend on the order of the policies', () => {
    expect(apply({ apply_policies: ['gold', 'silver'] }).access.get('a')!.limits).toEqual(
      apply({ apply_policies: ['silver', 'gold'] }).access.get('a')!.limits,
    );
  });

  it('lets unlimited beat every limit', () => {
    const limits = apply({ apply_policies: ['gold', 'unlimited'] }).access.get('a')!.limits;
    expect(limits).toMatchObject({ rate: -1, quotaMax: -1 });
  });

  it('counts APIs granted by different policies separately, per policy', () => {
    const e = apply({ apply_policies: ['silver', 'other-api'] });
    expect(e.access.get('a')!.scope).toBe('silver');
    expect(e.access.get('b')!.scope).toBe('other-api');
    expect(apply({ apply_policies: ['silver', 'gold'] }).access.get('a')!.scope).toBe('');
  });

  it('gives an API with its own limit its own counter', () => {
    const a = apply({ apply_policies: ['per-api'], rate: 100, per: 1 }).access.get('a')!;
    expect(a).toMatchObject({ scope: 'a', limits: { rate: 1, per: 1, quotaMax: 3 } });
  });

  it('applies only the partitions a policy manages', () => {
    const e = apply({ apply_policies: ['quota-only'], rate: 7, per: 1, quota_max: 1, access_rights: { own: { api_id: 'own' } } });
    expect([...e.access.keys()]).toEqual(['own']); // the ACL stays the key's own
    expect(e.access.get('own')!.limits).toMatchObject({ rate: 7, per: 1, quotaMax: 5, quotaRenewalRate: 10 });
  });

  it('deactivates the key when a policy is in state deny (or legacy is_inactive); draft keeps it active', () => {
    expect(apply({ apply_policies: ['silver', 'denied'] }).inactive).toBe(true);
    expect(apply({ apply_policies: ['legacy-inactive'] }).inactive).toBe(true);
    expect(apply({ apply_policies: ['draft'] }).inactive).toBe(false);
    expect(apply({ apply_policies: ['silver'], is_inactive: true }).inactive).toBe(false);
    expect(apply({ is_inactive: true, access_rights: {} }).inactive).toBe(true);
  });

  it('fails on a missing policy only when it is the only one', () => {
    expect(applyPolicies({ apply_policies: ['nope'] }, lookup)).toEqual({ ok: false, error: 'policy nope not found' });
    expect([...apply({ apply_policies: ['nope', 'silver'] }).access.keys()]).toEqual(['a']);
    expect(applyPolicies({ apply_policy_id: 'nope' }, lookup).ok).toBe(false);
  });

  it('refuses a policy of another organisation', () => {
    expect(applyPolicies({ org_id: 'y', apply_policies: ['org-x'] }, lookup).ok).toBe(false);
    expect(applyPolicies({ org_id: 'x', apply_policies: ['org-x'] }, lookup).ok).toBe(true);
  });

  it('merges GraphQL permissions: the deepest limit wins (-1 beats all), field lists unioned per type, introspection off when a policy turns it off', () => {
    const g = apply({ apply_policies: ['gql-shallow', 'gql-deep'] }).access.get('g')!.graphql;
    expect(g.maxQueryDepth).toBe(5);
    expect(g.restrictedTypes).toEqual(
      new Map<string, Set<string> | '*'>([
        ['User', new Set(['email', 'phone'])],
        ['Query', '*'],
      ]),
    );
    expect(g.allowedTypes).toBeUndefined();
    expect(g.disableIntrospection).toBe(true);
    expect(apply({ apply_policies: ['gql-shallow', 'gql-unlimited'] }).access.get('g')!.graphql.maxQueryDepth).toBe(-1);
    expect(apply({ apply_policies: ['gql-shallow'] }).session.access_rights?.g?.restricted_types).toEqual([{ name: 'User', fields: ['email'] }]);
  });

  it("takes the depth limit of the API (access_rights[api].limit.max_query_depth) before the key's or policy's own", () => {
    expect(apply({ apply_policies: ['gql-per-api'] }).access.get('g')!.graphql.maxQueryDepth).toBe(3);
    expect(apply({ max_query_depth: 4, access_rights: { g: { api_id: 'g' } } }).access.get('g')!.graphql.maxQueryDepth).toBe(4);
    expect(apply({ access_rights: { g: { api_id: 'g' } } }).access.get('g')!.graphql).toEqual({ maxQueryDepth: -1, disableIntrospection: false });
  });
});
