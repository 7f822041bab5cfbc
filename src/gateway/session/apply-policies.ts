// A key's effective session: the key merged with the policies it names (apply_policies, or the deprecated
// apply_policy_id). Computed when a key is read and cached until the key or the policies change, never per request.
//
// Merge rules (docs/compatibility.md), each policy contributing only the partitions it manages (a policy with
// no partition flag manages all of them):
//   acl       union of the APIs granted, versions and allowed_urls unioned per API; if no policy manages ACLs the
//             key's own access_rights stay
//   rate      the highest rate wins (the shortest per/rate; an explicit rate <= 0 means unlimited and wins)
//   quota     the highest quota_max wins (-1, unlimited, beats all), and the longest quota_renewal_rate
//   throttle  the largest throttle_retry_limit and throttle_interval
//   tags      union; meta_data merged, a later policy overwriting a key of an earlier one
//   state     a policy in state `deny` (legacy: is_inactive without a state) deactivates the key; `draft` keeps
//             existing keys working (it only stops new keys being created, see admin/keys.ts)
// Counters: an API with its own limit (access_rights[api].limit) counts under the scope of its API id; when several
// policies grant different APIs, each API counts under the scope of the policy granting it; otherwise one counter
// for the whole key (scope '').
// A missing policy is an error when it is the key's only one, and skipped when the key has others.
import type { AllowedUrl } from '../../domain/policy.ts';
import type { Session } from '../../domain/session.ts';
import type { StoredPolicy } from '../store/store.ts';
import type { z } from 'zod';
import { graphqlAccessOf, mergeDepthLimits, typeFieldsOf, type GraphqlAccess, type GraphqlRightSource } from './graphql-access.ts';

export interface Limits {
  rate: number;
  per: number;
  quotaMax: number;
  quotaRenewalRate: number;
  throttleInterval: number;
  throttleRetryLimit: number;
}

export interface EffectiveAccess {
  apiId: string;
  versions: string[];
  allowedUrls: z.infer<typeof AllowedUrl>[];
  limits: Limits;
  /** Counter scope: '' for the key's shared counters, else an API or policy id. */
  scope: string;
  /** Depth limit, field lists and introspection for GraphQL APIs (graphql-access.ts). */
  graphql: GraphqlAccess;
}

export interface EffectiveSession {
  /** The merged session in its wire form (GET /gw/keys answers with it). */
  session: Session;
  inactive: boolean;
  /** Unix seconds; 0 never. */
  expires: number;
  access: Map<string, EffectiveAccess>;
}

export type PolicyLookup = (id: string) => StoredPolicy | undefined;

export type ApplyResult = { ok: true; effective: EffectiveSession } | { ok: false; error: string };

const UNSET: Limits = { rate: 0, per: 0, quotaMax: -1, quotaRenewalRate: 0, throttleInterval: -1, throttleRetryLimit: -1 };

export function policyIdsOf(session: Session): string[] {
  if (session.apply_policies && session.apply_policies.length > 0) return session.apply_policies;
  return session.apply_policy_id ? [session.apply_policy_id] : [];
}

export function policyState(policy: StoredPolicy): 'active' | 'draft' | 'deny' {
  return policy.state ?? (policy.is_inactive ? 'deny' : 'active');
}

export function applyPolicies(session: Session, lookup: PolicyLookup): ApplyResult {
  const ids = policyIdsOf(session);
  const policies: StoredPolicy[] = [];
  for (const id of ids) {
    const policy = lookup(id);
    if (!policy) {
      if (ids.length === 1) return { ok: false, error: `policy ${id} not found` };
      continue;
    }
    if (policy.org_id && session.org_id && policy.org_id !== session.org_id) {
      return { ok: false, error: `policy ${id} belongs to another organisation` };
    }
    const p = policy.partitions ?? {};
    if (p.per_api && (p.acl || p.quota || p.rate_limit || p.complexity)) {
      return { ok: false, error: `policy ${id}: per_api cannot be combined with other partitions` };
    }
    policies.push(policy);
  }

  const own = limitsOf(session, UNSET);
  let root: Limits = { ...own };
  const rateFrom = policies.filter((p) => manages(p, 'rate_limit') && p.rate !== undefined);
  if (rateFrom.length > 0) root = { ...root, ...pickRate(rateFrom.map((p) => limitsOf(p, UNSET))) };
  const quotaFrom = policies.filter((p) => manages(p, 'quota') && p.quota_max !== undefined);
  if (quotaFrom.length > 0) root = { ...root, ...pickQuota(quotaFrom.map((p) => limitsOf(p, UNSET))) };
  const throttleFrom = policies.filter((p) => manages(p, 'rate_limit') && (p.throttle_interval !== undefined || p.throttle_retry_limit !== undefined));
  if (throttleFrom.length > 0) {
    root.throttleInterval = Math.max(...throttleFrom.map((p) => p.throttle_interval ?? -1));
    root.throttleRetryLimit = Math.max(...throttleFrom.map((p) => p.throttle_retry_limit ?? -1));
  }

  const complexityFrom = policies.filter((p) => manages(p, 'complexity') && p.max_query_depth !== undefined);
  const sessionDepth = complexityFrom.length > 0 ? mergeDepthLimits(complexityFrom.map((p) => p.max_query_depth)) : session.max_query_depth;
  const graphqlRights = new Map<string, GraphqlRightSource[]>();
  const aclPolicies = policies.filter((p) => manages(p, 'acl') && p.access_rights && Object.keys(p.access_rights).length > 0);
  const access = new Map<string, EffectiveAccess>();
  const grantedBy = new Map<string, string>();
  const explicit = new Map<string, Limits>();
  const rights =
    aclPolicies.length > 0 ? aclPolicies.map((p) => ({ from: p.id, rights: p.access_rights! })) : [{ from: '', rights: session.access_rights ?? {} }];
  for (const { from, rights: map } of rights) {
    for (const [apiId, right] of Object.entries(map)) {
      const existing = access.get(apiId);
      graphqlRights.set(apiId, [...(graphqlRights.get(apiId) ?? []), right]);
      if (!grantedBy.has(apiId)) grantedBy.set(apiId, from);
      if (right.limit && Object.keys(right.limit).length > 0) {
        const limit = limitsOf(right.limit, root);
        const before = explicit.get(apiId);
        explicit.set(apiId, before ? { ...before, ...pickRate([before, limit]), ...pickQuota([before, limit]) } : limit);
      }
      access.set(apiId, {
        apiId,
        versions: union(existing?.versions ?? [], right.versions ?? []),
        allowedUrls: mergeUrls(existing?.allowedUrls ?? [], right.allowed_urls ?? []),
        limits: root,
        scope: '',
        graphql: graphqlAccessOf(graphqlRights.get(apiId)!, sessionDepth),
      });
    }
  }
  const separateCounters = new Set(grantedBy.values()).size > 1;
  for (const [apiId, entry] of access) {
    const limit = explicit.get(apiId);
    if (limit) {
      entry.limits = limit;
      entry.scope = apiId;
    } else if (separateCounters) {
      entry.scope = grantedBy.get(apiId) ?? '';
    }
  }

  // With policies applied their state decides; the key's own is_inactive only counts for a key without policies.
  const inactive = policies.length > 0 ? policies.some((p) => policyState(p) === 'deny') : (session.is_inactive ?? false);
  const merged: Session = {
    ...session,
    rate: root.rate,
    per: root.per,
    quota_max: root.quotaMax,
    quota_renewal_rate: root.quotaRenewalRate,
    throttle_interval: root.throttleInterval,
    throttle_retry_limit: root.throttleRetryLimit,
    ...(sessionDepth !== undefined ? { max_query_depth: sessionDepth } : {}),
    is_inactive: inactive,
    tags: union(session.tags ?? [], ...policies.map((p) => p.tags ?? [])),
    meta_data: Object.assign({}, session.meta_data, ...policies.map((p) => p.meta_data ?? {})) as Record<string, unknown>,
    access_rights: Object.fromEntries(
      [...access.values()].map((a) => [
        a.apiId,
        {
          api_id: a.apiId,
          ...(apiName(a.apiId, policies, session) ? { api_name: apiName(a.apiId, policies, session)! } : {}),
          versions: a.versions,
          allowed_urls: a.allowedUrls,
          ...(explicit.has(a.apiId) ? { limit: wireLimits(a.limits) } : {}),
          ...(a.scope ? { allowance_scope: a.scope } : {}),
          ...wireGraphqlAccess(a.graphql),
        },
      ]),
    ),
  };
  return { ok: true, effective: { session: merged, inactive, expires: session.expires ?? 0, access } };
}

/** The merged GraphQL permissions, only where set (a key without them reads back as it was written). */
function wireGraphqlAccess(graphql: GraphqlAccess): Pick<GraphqlRightSource, 'allowed_types' | 'restricted_types' | 'disable_introspection'> {
  const allowed = typeFieldsOf(graphql.allowedTypes);
  const restricted = typeFieldsOf(graphql.restrictedTypes);
  return {
    ...(allowed ? { allowed_types: allowed } : {}),
    ...(restricted ? { restricted_types: restricted } : {}),
    ...(graphql.disableIntrospection ? { disable_introspection: true } : {}),
  };
}

function manages(policy: StoredPolicy, partition: 'acl' | 'quota' | 'rate_limit' | 'complexity'): boolean {
  const p = policy.partitions;
  if (!p || !(p.acl || p.quota || p.rate_limit || p.complexity)) return true; // no partition flag: all of them
  return p[partition] === true;
}

interface LimitSource {
  rate?: number | undefined;
  per?: number | undefined;
  quota_max?: number | undefined;
  quota_renewal_rate?: number | undefined;
  throttle_interval?: number | undefined;
  throttle_retry_limit?: number | undefined;
}

function limitsOf(source: LimitSource, fallback: Limits): Limits {
  return {
    rate: source.rate ?? fallback.rate,
    per: source.per ?? fallback.per,
    quotaMax: source.quota_max ?? fallback.quotaMax,
    quotaRenewalRate: source.quota_renewal_rate ?? fallback.quotaRenewalRate,
    throttleInterval: source.throttle_interval ?? fallback.throttleInterval,
    throttleRetryLimit: source.throttle_retry_limit ?? fallback.throttleRetryLimit,
  };
}

function wireLimits(limits: Limits): LimitSource {
  return {
    rate: limits.rate,
    per: limits.per,
    quota_max: limits.quotaMax,
    quota_renewal_rate: limits.quotaRenewalRate,
    throttle_interval: limits.throttleInterval,
    throttle_retry_limit: limits.throttleRetryLimit,
  };
}

/** Requests per second, Infinity when unlimited. */
function rateOf(limits: Limits): number {
  return limits.rate <= 0 || limits.per <= 0 ? Infinity : limits.rate / limits.per;
}

function pickRate(candidates: Limits[]): Pick<Limits, 'rate' | 'per'> {
  const best = candidates.reduce((a, b) => (rateOf(b) > rateOf(a) || (rateOf(b) === rateOf(a) && b.rate > a.rate) ? b : a));
  return { rate: best.rate, per: best.per };
}

function pickQuota(candidates: Limits[]): Pick<Limits, 'quotaMax' | 'quotaRenewalRate'> {
  const unlimited = candidates.some((c) => c.quotaMax <= 0);
  return {
    quotaMax: unlimited ? -1 : Math.max(...candidates.map((c) => c.quotaMax)),
    quotaRenewalRate: Math.max(...candidates.map((c) => c.quotaRenewalRate)),
  };
}

function union(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}

/** Union per url; an entry without methods allows every method, and stays so when merged. */
function mergeUrls(a: z.infer<typeof AllowedUrl>[], b: z.infer<typeof AllowedUrl>[]): z.infer<typeof AllowedUrl>[] {
  const byUrl = new Map<string, Set<string> | 'all'>();
  for (const entry of [...a, ...b]) {
    const before = byUrl.get(entry.url);
    if (before === 'all' || !entry.methods || entry.methods.length === 0) {
      byUrl.set(entry.url, 'all');
      continue;
    }
    const methods = before ?? new Set<string>();
    for (const m of entry.methods) methods.add(m.toUpperCase());
    byUrl.set(entry.url, methods);
  }
  return [...byUrl].map(([url, methods]) => ({ url, methods: methods === 'all' ? [] : [...methods] }));
}

function apiName(apiId: string, policies: StoredPolicy[], session: Session): string | undefined {
  for (const policy of policies) {
    const name = policy.access_rights?.[apiId]?.api_name;
    if (name) return name;
  }
  return session.access_rights?.[apiId]?.api_name;
}
