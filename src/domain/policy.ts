// The security policy object: a template that overrides sections of a key (access rights, rate limit, quota,
// throttling, expiry, tags, metadata). Wire format of /gw/policies and /api/portal/policies, and the base of the
// SecurityPolicy custom resource. Limits follow gw's documented table: quota_max is -1 (unlimited) or positive;
// throttling is on only when throttle_interval > 0 and throttle_retry_limit > 0 (negative values, default -1, disable it).
import { z } from 'zod';
import { FreeForm } from './json.ts';
import { GraphqlAccessFields } from './graphql.ts';
import { withRules } from './rule.ts';

export const PolicyState = z
  .enum(['active', 'draft', 'deny'])
  .describe('active: keys work and new keys can be created; draft: keys work, no new keys; deny: all keys are deactivated. Overrides active and is_inactive.');

export const QuotaMax = withRules(z.int().describe('Requests allowed per quota period; -1 is unlimited.'), {
  cel: 'self == -1 || self > 0',
  test: (v) => v === -1 || v > 0,
  message: 'quota_max must be -1 (unlimited) or a positive integer',
});

/** Rate, quota and throttling: the same fields on a policy, a key, and a per-API limit. */
export const LimitFields = {
  rate: z.int().min(-1).optional().describe('Requests allowed per `per` seconds (rolling window); 0 or -1 means no rate limit.'),
  per: z.int().min(-1).optional().describe('Rate limit period in seconds.'),
  quota_max: QuotaMax.optional(),
  quota_renewal_rate: z
    .int()
    .min(-1)
    .optional()
    .describe('Quota period in seconds (3600 hourly, 86400 daily); renewal happens at the next request after it elapses.'),
  throttle_interval: z
    .number()
    .optional()
    .describe('Seconds between retries of a rate-limited request; > 0 (with throttle_retry_limit > 0) enables throttling, < 0 disables it.'),
  throttle_retry_limit: z.int().optional().describe('Retries of a rate-limited request before it is rejected with 429; < 0 disables throttling.'),
  max_query_depth: z.int().min(-1).optional().describe('GraphQL query depth limit; -1 is unlimited.'),
};

export const ApiLimit = z.object(LimitFields);

export const AllowedUrl = z.object({
  url: z.string().describe('Path (relative to the listen path) the key may call; `{name}` segments are wildcards.'),
  methods: z.array(z.string()).optional().describe('Methods allowed on that path; empty allows every method.'),
});

export const AccessDefinition = z.object({
  api_id: z.string().describe('Id of the API.'),
  api_name: z.string().optional(),
  versions: z.array(z.string()).optional().describe('Version names of the API the key may use.'),
  allowed_urls: z.array(AllowedUrl).optional().describe('When present, the only paths the key may call.'),
  limit: ApiLimit.optional().describe('Per-API rate limit, quota and throttling overriding the global ones.'),
  allowance_scope: z.string().optional(),
  ...GraphqlAccessFields,
});

export const Partitions = z
  .object({
    quota: z.boolean().optional(),
    rate_limit: z.boolean().optional(),
    acl: z.boolean().optional(),
    complexity: z.boolean().optional(),
    per_api: z.boolean().optional(),
  })
  .describe('Policy partitioning: manage only these segments of a key. None set means all.');

/** Fields a policy has both on the wire and in the custom resource. */
export const PolicyFields = {
  name: z.string().min(1).describe('Policy name.'),
  org_id: z.string().optional(),
  active: z.boolean().optional().describe('Legacy; overridden by state.'),
  is_inactive: z.boolean().optional().describe('Legacy; overridden by state.'),
  state: PolicyState.optional(),
  ...LimitFields,
  tags: z.array(z.string()).optional().describe('Case-sensitive tags, used to filter analytics.'),
  meta_data: FreeForm.optional().describe('Metadata used by middleware (for example user ids).'),
  key_expires_in: z.int().min(0).optional().describe('Seconds after which keys created under the policy expire; 0 never.'),
  partitions: Partitions.optional(),
  hmac_enabled: z.boolean().optional(),
};

export const Policy = z.object({
  id: z.string().optional().describe('Policy id (explicit ids need allow_explicit_policy_id).'),
  _id: z.string().optional(),
  ...PolicyFields,
  access_rights: z.record(z.string(), AccessDefinition).optional().describe('Access rights by API id.'),
});
export type Policy = z.infer<typeof Policy>;
