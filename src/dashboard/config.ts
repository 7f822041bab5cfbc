// The dashboard's configuration: a JSON file, overridden key by key by environment variables GW_DASHBOARD_<KEY>
// (the key in upper case: admin_secret is GW_DASHBOARD_ADMIN_SECRET). Every option is declared once here with its
// default and description; `gw dashboard --config-reference` prints them. A relative database_url that is not a
// PostgreSQL URL (a PGlite directory) is resolved against the config file's directory. A missing or invalid value
// stops the dashboard at start with one line per problem naming the key. Secrets are never part of a message.
import { z } from 'zod';
import { configOptions, readConfig, type ConfigOption, type LoadedConfig } from '../config/file-and-env.ts';
import { resolveDatabaseUrl } from '../db/open.ts';

const secret = (name: string, what: string) =>
  z
    .string({ error: `${name} is required: ${what}` })
    .min(1, `${name} must not be empty: ${what}`)
    .describe(`Required. ${what[0]!.toUpperCase()}${what.slice(1)}.`);

export const DashboardConfigSchema = z.object({
  listen_address: z.string().default('127.0.0.1').describe('Address the dashboard listens on.'),
  listen_port: z.int().min(0).max(65535).default(3000).describe('Port of the dashboard API (admin, org and node APIs).'),
  database_url: z
    .string()
    .min(1)
    .default('data/dashboard')
    .describe(
      'postgres://user:pass@host:5432/db for a PostgreSQL server; `memory:` for a throwaway in-memory database; otherwise a directory for the embedded PGlite database (relative to the config file).',
    ),
  admin_secret: secret('admin_secret', 'the admin API credential, sent in header admin-auth (creates organisations and users)'),
  node_secret: secret('node_secret', 'the credential gateways present in header x-gw-node-secret to load their configuration'),
  allow_explicit_policy_id: z
    .boolean()
    .default(false)
    .describe('Keep the `id` a client gives a new policy (the operator needs true: it names policies itself); false generates ids and ignores a given one.'),
  enable_duplicate_slugs: z
    .boolean()
    .default(false)
    .describe('Allow several policies of one organisation with the same name (the operator needs true); false answers 409 to a duplicate.'),
  edition: z
    .enum(['self-managed', 'cloud'])
    .default('self-managed')
    .describe('Answer shape of POST /api/keys: self-managed {action, key, status}; cloud {api_model, key_id, data}.'),
  hash_keys: z.boolean().default(true).describe('Store keys by their SHA-256 hash (as gateways with hash_keys do); the key itself is shown once, at creation.'),
  page_size: z.int().min(1).max(10_000).default(10).describe('Items per page of list endpoints (?p=<page>, from 1; ?p=-2 returns everything).'),
  max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('Largest request body; larger ones get 413.'),
  import_max_document_bytes: z
    .int()
    .positive()
    .default(4 * 1024 * 1024)
    .describe('Largest document an /api/import request may carry (UTF-8 bytes, as JSON when given decoded); larger ones get 413.'),
  import_max_operations: z.int().positive().default(2000).describe('Most operations (path x method) an imported document may describe; more get 413.'),
  analytics_retention_days: z
    .number()
    .positive()
    .default(30)
    .describe('Days analytics (per-minute aggregates and the detailed request log) are kept; older ones are deleted (fractions allowed).'),
  analytics_prune_interval_seconds: z
    .int()
    .min(1)
    .default(3600)
    .describe('How often analytics past analytics_retention_days are deleted (also once at start).'),
  audit_retention_days: z
    .number()
    .positive()
    .default(90)
    .describe('Days audit log entries are kept; older ones are deleted (fractions allowed). Tyk Dashboard keeps them until removed by hand.'),
  audit_prune_interval_seconds: z
    .int()
    .min(1)
    .default(3600)
    .describe('How often audit log entries past audit_retention_days are deleted (also once at start).'),
  session_ttl_seconds: z
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .default(8 * 3600)
    .describe('Lifetime of a web UI sign-in session in seconds (from sign-in; the user signs in again after it).'),
  admin_session_ttl_seconds: z
    .int()
    .min(1)
    .max(24 * 3600)
    .default(900)
    .describe('Lifetime of a web UI administrator session in seconds (opened with the admin secret; short, as the secret reaches every organisation).'),
  session_cookie_secure: z
    .boolean()
    .default(false)
    .describe('Always mark the session cookie Secure (set it when a TLS proxy sits in front); false: Secure only when the request itself came over TLS.'),
  trusted_proxies: z
    .array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], { error: 'must be an IP address or CIDR range' }))
    .default([])
    .describe(
      "Addresses (or CIDR ranges) of reverse proxies in front of the dashboard whose X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host are believed (the client address of sign-in throttling comes from them). Empty: those headers are ignored and the connection's address is the client's.",
    ),
  sign_in_max_failures_per_account: z
    .int()
    .min(1)
    .default(5)
    .describe(
      "Failed sign-ins of one account (the web UI administrator; a portal developer's e-mail, portal form and verify_credentials together) within sign_in_window_seconds that lock the account's sign-in out (429 with Retry-After, even for the right credentials); a success resets the count.",
    ),
  sign_in_max_failures_per_client: z
    .int()
    .min(1)
    .default(20)
    .describe(
      "Failed sign-ins from one client address (for verify_credentials: one API user) within sign_in_window_seconds, over every sign-in endpoint, that lock that client's sign-ins out (429). The address is the connection's: X-Forwarded-For is not trusted.",
    ),
  sign_in_window_seconds: z
    .number()
    .positive()
    .default(300)
    .describe(
      "Window in which failed sign-ins are counted, and the first lock-out's length; each further lock-out of the same client or account doubles, up to sign_in_max_lockout_seconds (fractions allowed).",
    ),
  sign_in_max_lockout_seconds: z
    .number()
    .positive()
    .default(3600)
    .describe('Longest sign-in lock-out; a client or account quiet that long after a lock-out starts from the first lock-out length again.'),
  sign_in_tracked_entries: z
    .int()
    .min(1)
    .default(10_000)
    .describe(
      'Most clients, and most accounts, whose failed sign-ins are remembered (in memory, per dashboard process); beyond it the least recently seen are forgotten.',
    ),
  sign_up_max_per_client: z
    .int()
    .min(1)
    .default(10)
    .describe(
      "Developer portal sign-ups from one client address within sign_in_window_seconds (accounts created and e-mails found taken alike) before that client's sign-ups are locked out (429 with Retry-After; lock-outs double like sign-in's, up to sign_in_max_lockout_seconds).",
    ),
  password_check_concurrency: z
    .int()
    .min(1)
    .default(4)
    .describe('Most portal password hashes (scrypt, ~32 MiB and tens of milliseconds each) computed at once, for sign-ins and sign-ups.'),
  password_check_queue: z.int().min(0).default(32).describe('Most password checks waiting for one of password_check_concurrency; more are refused with 503.'),
  governance_url: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'Base URL of a governance hub (`gw governance`), e.g. http://governance:4000; with governance_token, the web UI shows and applies its labels on APIs. Unset: no labels.',
    ),
  governance_token: z
    .string()
    .min(1)
    .optional()
    .describe('X-API-Key of the governance hub, sent by the dashboard (an admin token to apply labels). Never logged.'),
  gateway_public_url: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "The gateway's public base URL as developers call it, e.g. https://api.example.com; the developer portal's API page shows it joined with each API's listen path (an API with a `domain` is shown at that host instead). Unset: the listen path alone.",
    ),
  portal_public_url: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "The dashboard's public base URL as developers reach it, e.g. https://dashboard.example.com, for the links in portal e-mails (verification, password reset) and the web UI's link to the portal. An organisation with a domain (cname) is linked at https://<cname> unless this URL's host is that domain. Unset: http://<listen_address>:<listen_port> in e-mails, the web UI's own address in its link. Never taken from a request's Host header.",
    ),
  portal_reset_token_ttl_seconds: z
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600)
    .describe('Lifetime of a portal password-reset link in seconds (used once).'),
  portal_verify_token_ttl_seconds: z
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(24 * 3600)
    .describe('Lifetime of a portal e-mail verification link in seconds (used once).'),
  smtp_host: z
    .string()
    .min(1)
    .optional()
    .describe(
      'SMTP server the portal sends its e-mails through (verification, password reset). Unset: the portal sends no e-mail and offers no password reset.',
    ),
  smtp_port: z.int().min(1).max(65535).default(587).describe('Port of smtp_host.'),
  smtp_starttls: z
    .enum(['required', 'optional', 'off'])
    .default('required')
    .describe('STARTTLS on the SMTP connection: required (refuse to send without it), optional (when the server offers it), off (never; plain text).'),
  smtp_ca_file: z.string().min(1).optional().describe("PEM file of the CA that signed the SMTP server's certificate (unset: the system's CAs)."),
  smtp_user: z
    .string()
    .min(1)
    .optional()
    .describe('SMTP user name (AUTH PLAIN, else LOGIN, over TLS only unless smtp_starttls is off). Unset: no authentication.'),
  smtp_password: z.string().min(1).optional().describe('SMTP password (set it through GW_DASHBOARD_SMTP_PASSWORD, e.g. from a Secret). Never logged.'),
  smtp_from: z
    .string()
    .min(3)
    .default('portal@localhost')
    .describe("Envelope sender and From address of portal e-mails (the portal configuration's mail_options.mail_from_email wins when set)."),
  smtp_timeout_seconds: z.number().positive().max(300).default(15).describe('Longest wait for the SMTP server at each step (connect, each reply).'),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('Log level.'),
});

export type DashboardConfig = z.infer<typeof DashboardConfigSchema>;

export const ENV_PREFIX = 'GW_DASHBOARD_';

export function configReference(): ConfigOption[] {
  return configOptions(DashboardConfigSchema, ENV_PREFIX);
}

/** Reads the JSON file (optional: the environment alone may do) and applies the environment overrides. */
export function loadDashboardConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): LoadedConfig<DashboardConfig> {
  const loaded = readConfig(DashboardConfigSchema, { file, env, envPrefix: ENV_PREFIX, what: 'dashboard' });
  loaded.config.database_url = resolveDatabaseUrl(loaded.config.database_url, loaded.base);
  return { config: loaded.config, unknownKeys: loaded.unknownKeys };
}
