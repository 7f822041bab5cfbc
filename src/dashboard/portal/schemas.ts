// The classic portal's request bodies (Tyk\'s payloads, docs:tyk-apis/tyk-portal-api/*): catalogue and its
// entries, documentation, developers, key requests. Fields are typed so a wrong one is a 400 naming it
// (`apis[0].policy_id: ...`); references to other objects (policies, documentation, developers) are checked
// against the caller's organisation by the routes, not here. Read-only fields a client may echo back (id,
// org_id, date_created, keys, subscriptions) are accepted and ignored.
import { z } from 'zod';
import { PortalConfigInput } from './config-schema.ts';

const Text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const StringMap = z.record(z.string().max(200), Text(10_000)).refine((map) => Object.keys(map).length <= 100, 'at most 100 fields');

export const AUTH_TYPES = ['', 'multiAuth', 'keyless', 'basic', 'hmac', 'jwt', 'oauth', 'openid', 'mutualTLS', 'authToken', 'custom', 'other'] as const;

export const CatalogueEntryInput = z.object({
  name: Text(500).min(1, 'must not be empty'),
  short_description: Text(2_000).default(''),
  long_description: Text(100_000).default(''),
  show: z.boolean().default(false),
  api_id: Text(200).default(''),
  policy_id: Text(200).min(1, 'must name a policy of this organisation'),
  documentation: Text(200).default(''),
  version: z.enum(['v2']).default('v2'),
  is_keyless: z.boolean().default(false),
  auth_type: z.enum(AUTH_TYPES).default(''),
  fields: StringMap.default({}),
  config: PortalConfigInput.optional(),
});
export type CatalogueEntry = z.infer<typeof CatalogueEntryInput>;

export const CatalogueInput = z.object({
  id: z.string().optional(),
  org_id: z.string().optional(),
  email: Text(500).default(''),
  apis: z.array(CatalogueEntryInput).max(1000, 'at most 1000 entries').default([]),
});
export type CatalogueInput = z.infer<typeof CatalogueInput>;

export const DOC_TYPES = ['swagger', 'swagger_custom_url', 'graphql', 'blueprint'] as const;
export type DocType = (typeof DOC_TYPES)[number];

export const DocumentationInput = z.object({
  api_id: Text(200).default(''),
  doc_type: z.enum(DOC_TYPES),
  documentation: z.string().min(1, 'must not be empty'),
});
export type DocumentationInput = z.infer<typeof DocumentationInput>;

/** Shortest developer password accepted. */
export const MIN_PASSWORD_LENGTH = 8;
const Password = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024, 'must be at most 1024 characters');
const Email = z.email('must be an e-mail address').max(320);

export const DeveloperCreateInput = z.object({
  email: Email,
  password: Password,
  inactive: z.boolean().default(false),
  fields: StringMap.default({}),
});
export type DeveloperCreateInput = z.infer<typeof DeveloperCreateInput>;

/** PUT: the same, the password optional (absent: unchanged). */
export const DeveloperUpdateInput = DeveloperCreateInput.extend({ password: Password.optional() });
export type DeveloperUpdateInput = z.infer<typeof DeveloperUpdateInput>;

export const CredentialsInput = z.object({ username: z.string().max(320), password: z.string().max(1024) });
export const PasswordInput = z.object({ password: Password });

export const KeyRequestInput = z
  .object({
    by_user: Text(200).min(1, 'must name a developer of this organisation'),
    fields: StringMap.default({}),
    apply_policies: z.array(Text(200).min(1)).max(20, 'at most 20 policies').default([]),
    for_plan: Text(200).optional().describe('Deprecated: one policy id, used when apply_policies is empty.'),
    version: z.enum(['v2']).default('v2'),
  })
  .transform((request) => ({
    ...request,
    apply_policies: request.apply_policies.length > 0 ? request.apply_policies : request.for_plan ? [request.for_plan] : [],
  }))
  .refine((request) => request.apply_policies.length > 0, { message: 'a key request needs at least one policy (or for_plan)', path: ['apply_policies'] });
export type KeyRequestInput = z.infer<typeof KeyRequestInput>;

/** POST /api/portal/developers/{id}/keys: a key for the developer applying these policies. */
export const DeveloperKeyInput = z.object({
  apply_policies: z.array(Text(200).min(1)).min(1, 'a key needs at least one policy').max(20, 'at most 20 policies'),
  fields: StringMap.default({}),
});

/** PUT /api/portal/requests/decline/{id} (optional body): why, for the developer to read. */
export const DeclineInput = z.object({ reason: Text(1_000).default('') });
