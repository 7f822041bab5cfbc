// The key (session) object: what POST /gw/keys creates and GET /gw/keys/{id} returns. A key grants access to
// APIs directly (access_rights) or through policies (apply_policies); the gateway merges the policies in on every
// read. Limits share their field names and rules with policies (policy.ts LimitFields).
import { z } from 'zod';
import { FreeForm } from './json.ts';
import { AccessDefinition, LimitFields } from './policy.ts';

export const Session = z.object({
  allowance: z.number().optional().describe('Legacy; kept as written, never enforced.'),
  ...LimitFields,
  expires: z.int().optional().describe('Unix time (seconds) the key expires at; 0 or -1 never.'),
  quota_renews: z.int().optional().describe('Unix time (seconds) the current quota period ends.'),
  quota_remaining: z.int().optional().describe('Requests left in the current quota period (computed on read).'),
  org_id: z.string().optional(),
  access_rights: z.record(z.string(), AccessDefinition).optional().describe('APIs the key may call, by API id.'),
  meta_data: FreeForm.optional(),
  apply_policies: z.array(z.string()).optional().describe('Ids of the policies applied to the key.'),
  apply_policy_id: z.string().optional().describe('Deprecated single policy id: use apply_policies.'),
  is_inactive: z.boolean().optional().describe('The key is deactivated.'),
  tags: z.array(z.string()).optional(),
  alias: z.string().optional(),
  enable_detailed_recording: z.boolean().optional(),
  hmac_enabled: z.boolean().optional().describe('The key signs requests (enable_signature_checking APIs) with hmac_string.'),
  hmac_string: z.string().optional().describe('The HMAC signing secret; generated when hmac_enabled and absent.'),
  basic_auth_data: z
    .object({
      password: z.string().describe('Plain on write; stored as a bcrypt hash, never answered back.'),
      hash_type: z.enum(['', 'bcrypt', 'sha256']).optional().describe('How the stored password is hashed (set by the gateway).'),
    })
    .optional()
    .describe('Basic authentication: the key is <org_id><username>.'),
  certificate: z
    .string()
    .optional()
    .describe(
      'Certificate store id of a client certificate: the key is <org_id><certificate id>, used by APIs with auth_configs.authToken.use_certificate and never as a plain token.',
    ),
  id_extractor_deadline: z
    .int()
    .optional()
    .describe(
      "Unix time (seconds) until which a gRPC authentication plugin's ID extractor admits this key without calling the plugin (set by the plugin in the session it returns).",
    ),
  oauth_client_id: z.string().optional().describe('The OAuth client a token was issued to (use_oauth2 APIs; set by the gateway).'),
  date_created: z.string().optional(),
  last_updated: z.string().optional(),
});
export type Session = z.infer<typeof Session>;
