// The classic portal configuration object (Tyk's PortalConfig: sign-up and key-request fields, the key
// approval settings, e-mail copy, DCR options), as POST/PUT /api/portal/configuration take it and as a catalogue
// entry's `config` override carries it. Every known field has its type and its default (Tyk answers every
// field, zero-valued when unset); the nested e-mail and DCR option objects are kept as written (loose objects:
// their own fields typed, others kept). `id` and `org_id` in a body are read-only: the store sets them.
import { z } from 'zod';

const EmailCopy = z.looseObject({
  enabled: z.boolean().default(false),
  subject: z.string().default(''),
  body: z.string().default(''),
  sign_off: z.string().default(''),
  hide_token_data: z.boolean().default(false),
});

const MailOptions = z.looseObject({
  mail_from_name: z.string().default(''),
  mail_from_email: z.string().default(''),
  email_copy: z
    .looseObject({
      welcome_email: EmailCopy.default(EmailCopy.parse({})),
      key_email: EmailCopy.default(EmailCopy.parse({})),
      reset_password_email: EmailCopy.default(EmailCopy.parse({})),
    })
    .default({ welcome_email: EmailCopy.parse({}), key_email: EmailCopy.parse({}), reset_password_email: EmailCopy.parse({}) }),
});

const DcrOptions = z.looseObject({
  idp_host: z.string().optional(),
  registration_endpoint: z.string().optional(),
  access_token: z.string().optional(),
  provider: z.enum(['gluu', 'keycloak', 'okta']).optional(),
  grant_types: z.array(z.enum(['client_credentials', 'authorization_code', 'refresh_token'])).optional(),
  response_types: z.array(z.enum(['code', 'token'])).optional(),
  token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt', 'none']).optional(),
});

const FieldNames = z.array(z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters')).max(100, 'at most 100 fields');

export const PortalConfigFields = {
  signup_fields: FieldNames.default([]).describe('Extra fields a developer fills in at sign-up.'),
  key_request_fields: FieldNames.default([]).describe('Extra fields a developer fills in when requesting a key.'),
  require_key_approval: z.boolean().default(false).describe('Key requests wait for an admin approval (false: a key is issued at once).'),
  secure_key_approval: z.boolean().default(false),
  redirect_on_key_request: z.boolean().default(false),
  redirect_to: z.string().default(''),
  enable_multi_selection: z.boolean().default(false),
  disable_login: z.boolean().default(false),
  disable_signup: z.boolean().default(false),
  disable_auto_login: z.boolean().default(false),
  catalogue_login_only: z.boolean().default(false),
  require_email_verification: z
    .boolean()
    .default(false)
    .describe(
      "A developer who signs up is inactive until they follow the link e-mailed to them (needs the dashboard's smtp_host). Not a field of Tyk's classic portal, which does not verify e-mails: off by default.",
    ),
  require_developer_approval: z
    .boolean()
    .default(false)
    .describe(
      "A developer who signs up waits, inactive, until an administrator approves them (PUT /api/portal/developers/approve/{id}). Not a field of Tyk's classic portal: off by default.",
    ),
  portal_name: z
    .string()
    .max(100, 'must be at most 100 characters')
    .default('')
    .describe('The portal\'s name, shown in its header and page titles (empty: "<organisation> developer portal"). Not a field of Tyk\'s classic portal.'),
  oauth_usage_limit: z.int().default(-1),
  email: z.string().default(''),
  mail_options: MailOptions.default(MailOptions.parse({})),
  enable_dcr: z.boolean().default(false),
  dcr_options: DcrOptions.default({}),
  override: z.boolean().default(false),
};

/** A configuration as written (id and org_id accepted and ignored: the store owns them). */
export const PortalConfigInput = z.object({ id: z.string().optional(), org_id: z.string().optional(), ...PortalConfigFields });
export type PortalConfigInput = z.infer<typeof PortalConfigInput>;

/** The configuration fields only (what is stored). */
export type PortalConfigSettings = Omit<PortalConfigInput, 'id' | 'org_id'>;

/** The settings of an organisation that never wrote a configuration: every default. */
export function defaultPortalConfig(): PortalConfigSettings {
  const { id: _id, org_id: _org, ...settings } = PortalConfigInput.parse({});
  return settings;
}
