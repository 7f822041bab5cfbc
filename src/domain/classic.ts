// The Classic API definition: the wire format of POST /gw/apis and /api/apis, and (plus a few cluster-only
// references, see crd/apidefinition.ts) the spec of the ApiDefinition custom resource. Field names are gw's documented
// (snake_case, as Tyk's users write them). Parsing strips unknown keys, as Tyk\'s JSON decoding does.
// Defaults that depend on context (auth header `Authorization`, versions) are applied by the gateway and the
// admission webhook, never baked into this schema, so a stored definition is exactly what its author wrote.
import { z } from 'zod';
import { FreeForm } from './json.ts';
import { GraphqlSection } from './graphql.ts';
import { CacheOptions, ExtendedPaths } from './classic-extended-paths.ts';
import { InternalLoopTarget } from './internal-loop-target.ts';
import { ClassicUptimeTests } from './uptime-tests.ts';

// The extended_paths entries are classic-extended-paths.ts's; importers of the definition find them here too.
export * from './classic-extended-paths.ts';

/** The older form of the endpoint lists: plain paths, every method (applied before extended_paths' entries). */
export const LegacyPaths = z
  .object({
    ignored: z.array(z.string()).optional().describe('Paths served without authentication, rate limiting or quota.'),
    white_list: z.array(z.string()).optional().describe('When present, only these paths (and ignored ones) are allowed.'),
    black_list: z.array(z.string()).optional().describe('Paths answered 403 `Requested endpoint is forbidden`.'),
  })
  .describe('Legacy endpoint lists (plain paths); extended_paths is the newer form.');

export const VersionInfo = z.object({
  name: z.string().describe('Version name.'),
  expires: z.string().optional().describe('Expiry as `2006-01-02 15:04`; empty never expires.'),
  use_extended_paths: z.boolean().optional().describe("Apply this version's extended_paths."),
  extended_paths: ExtendedPaths.optional(),
  override_target: z.string().optional().describe('Upstream URL for this version instead of proxy.target_url.'),
  paths: LegacyPaths.optional(),
  global_size_limit: z.int().min(0).optional().describe('Largest request body in bytes for every endpoint of this version; larger ones get 413 (0: no limit).'),
  global_headers: z.record(z.string(), z.string()).optional().describe('Headers set on every request of this version before it is forwarded (name -> value).'),
  global_headers_remove: z.array(z.string()).optional().describe('Headers removed from every request of this version before it is forwarded.'),
  global_response_headers: z.record(z.string(), z.string()).optional().describe('Headers set on every upstream response of this version (name -> value).'),
  global_response_headers_remove: z.array(z.string()).optional().describe('Headers removed from every upstream response of this version.'),
});
export type VersionInfo = z.infer<typeof VersionInfo>;

export const VersionData = z.object({
  not_versioned: z.boolean().optional().describe('The API has a single (default) version.'),
  default_version: z.string().optional().describe('Version used when a request names none.'),
  versions: z.record(z.string(), VersionInfo).optional().describe('Versions by name.'),
});

export const VersionDefinition = z.object({
  location: z.enum(['header', 'url-param', 'url']).optional().describe('Where the version name is read from.'),
  key: z.string().optional().describe('Header or query parameter carrying the version name, for example x-api-version.'),
  strip_path: z.boolean().optional().describe('Deprecated: use strip_versioning_data.'),
  strip_versioning_data: z.boolean().optional().describe('Remove the version from the request before forwarding.'),
  fallback_to_default: z.boolean().optional().describe('Serve the default version when the named one does not exist.'),
  url_versioning_pattern: z
    .string()
    .optional()
    .describe('Accepted for compatibility; refused when set (a pattern for url-located versions is not supported yet).'),
});

export const RequestSignature = z.object({
  algorithm: z.string().optional().describe('Signature algorithm, for example MasherySHA256 or MasheryMD5.'),
  header: z.string().optional().describe('Header carrying the signature.'),
  use_param: z.boolean().optional(),
  param_name: z.string().optional(),
  secret: z.string().optional().describe('Shared secret the signature is computed with.'),
  allowed_clock_skew: z.int().optional().describe('Seconds of clock skew tolerated.'),
  error_code: z.int().optional().describe('Status code answered when the signature is invalid.'),
  error_message: z.string().optional(),
});

/** Where the gateway reads a credential from. */
export const AuthConfig = z.object({
  name: z.string().optional(),
  auth_header_name: z.string().optional().describe('Header carrying the credential (default Authorization; `Bearer <token>` accepted).'),
  disable_header: z.boolean().optional().describe('Do not read the credential from the header.'),
  use_param: z.boolean().optional().describe('Also accept the credential as a query parameter.'),
  param_name: z.string().optional().describe('Query parameter name (default: the header name).'),
  use_cookie: z.boolean().optional().describe('Also accept the credential from a cookie.'),
  cookie_name: z.string().optional().describe('Cookie name (default: the header name).'),
  use_certificate: z.boolean().optional().describe('Derive dynamic keys from client certificates.'),
  validate_signature: z.boolean().optional().describe('Validate a request signature as well.'),
  signature: RequestSignature.optional(),
});

export const AuthConfigs = z.object({
  authToken: AuthConfig.optional().describe('Authentication token settings.'),
  jwt: AuthConfig.optional(),
  basic: AuthConfig.optional(),
  hmac: AuthConfig.optional(),
  oauth: AuthConfig.optional(),
  oidc: AuthConfig.optional(),
  coprocess: AuthConfig.optional(),
});

export const Proxy = z.object({
  listen_path: z.string().optional().describe('Path on the gateway the API answers under.'),
  target_url: z
    .string()
    .optional()
    .describe('Upstream URL; a cluster service may be given as <service>.<namespace>.svc:<port>; tyk://<api id or name> loops every request into that API.'),
  target_internal: InternalLoopTarget.optional().describe('Tyk Operator: every request loops into another ApiDefinition; wins over target_url.'),
  strip_listen_path: z.boolean().optional().describe('Remove the listen path before forwarding.'),
  listen_path_exact: z.boolean().optional().describe('Answer on the listen path alone, not on the paths under it (Kubernetes Ingress pathType Exact).'),
  preserve_host_header: z.boolean().optional().describe("Forward the client's Host header instead of the upstream's."),
  disable_strip_slash: z.boolean().optional().describe('Accepted for compatibility; refused when true (not supported yet).'),
  enable_load_balancing: z.boolean().optional().describe('Send requests round robin over target_list instead of target_url.'),
  target_list: z
    .array(z.string())
    .optional()
    .describe('Upstream URLs used round robin when enable_load_balancing is set; a URL listed twice gets twice the share.'),
  check_host_against_uptime_tests: z
    .boolean()
    .optional()
    .describe('Skip targets whose host fails the uptime tests (uptime_tests); every target down: 503 `all hosts are down`.'),
});

export const GlobalRateLimit = z.object({
  rate: z.number().min(0).optional().describe('Requests allowed per period across all clients of the API.'),
  per: z.number().min(0).optional().describe('Period in seconds.'),
  disabled: z.boolean().optional(),
});

/** Cross-origin resource sharing, answered by the gateway (Tyk's rs/cors semantics). */
export const Cors = z
  .object({
    enable: z.boolean().optional().describe('Answer CORS preflights and add CORS headers to responses.'),
    allowed_origins: z
      .array(z.string())
      .optional()
      .describe('Origins allowed; empty or `*` allows every origin; one `*` inside an origin is a wildcard (https://*.example.com).'),
    allowed_methods: z.array(z.string()).optional().describe('Methods allowed (default GET, POST, HEAD).'),
    allowed_headers: z
      .array(z.string())
      .optional()
      .describe('Request headers allowed (default Origin, Accept, Content-Type, X-Requested-With); `*` allows any.'),
    exposed_headers: z.array(z.string()).optional().describe('Response headers the browser may read (Access-Control-Expose-Headers).'),
    allow_credentials: z.boolean().optional().describe('Send Access-Control-Allow-Credentials: true.'),
    max_age: z.int().min(0).optional().describe('Seconds a preflight answer may be cached (Access-Control-Max-Age; 0: not sent).'),
    options_passthrough: z.boolean().optional().describe('Forward preflights to the upstream (with the CORS headers) instead of answering them.'),
    debug: z.boolean().optional().describe('Accepted for compatibility; the gateway logs nothing more.'),
  })
  .describe('CORS settings.');

export const ClassicApiFields = {
  name: z.string().min(1).describe('API name.'),
  slug: z.string().optional(),
  api_id: z.string().optional().describe('API id; generated when omitted (required in file-based mode).'),
  org_id: z.string().optional().describe('Organisation id.'),
  active: z.boolean().optional().describe('The API is enabled (loaded and routed).'),
  uptime_tests: ClassicUptimeTests.optional(),
  internal: z.boolean().optional().describe('Reachable only by internal looping (tyk://<api_id or name>/...), never from clients (404 on its listen path).'),
  protocol: z.enum(['http', 'https', 'h2c', 'tcp', 'tls']).optional().describe('Listener protocol.'),
  listen_port: z.int().min(0).max(65535).optional(),
  domain: z
    .string()
    .optional()
    .describe(
      'Host name the API answers on; empty means every host. A wildcard is a whole first label: *.example.com matches one or more labels, {?:[^.]+}.example.com exactly one (a Kubernetes Ingress wildcard host).',
    ),
  proxy: Proxy.optional(),
  use_keyless: z.boolean().optional().describe('Open access: no credential is checked.'),
  use_standard_auth: z.boolean().optional().describe('Authentication token (auth_configs.authToken).'),
  use_basic_auth: z.boolean().optional(),
  use_mutual_tls_auth: z.boolean().optional(),
  enable_jwt: z.boolean().optional().describe('JWT authentication.'),
  auth: AuthConfig.optional().describe('Legacy location of the token settings: use auth_configs.authToken.'),
  auth_configs: AuthConfigs.optional(),
  strip_auth_data: z.boolean().optional().describe('Do not forward credentials upstream.'),
  base_identity_provided_by: z.string().optional(),
  jwt_signing_method: z.enum(['hmac', 'rsa', 'ecdsa']).optional().describe('How JWTs are signed.'),
  jwt_source: z.string().optional().describe('Base64-encoded secret, public key or JWKS URL used to verify JWTs.'),
  jwt_identity_base_field: z.string().optional().describe('Claim identifying the user, typically sub.'),
  jwt_policy_field_name: z.string().optional().describe('Claim carrying the policy id, for example pol.'),
  jwt_client_base_field: z
    .string()
    .optional()
    .describe("Claim naming a key whose first policy is the session's base policy when jwt_policy_field_name gives none."),
  jwt_default_policies: z
    .array(z.string())
    .optional()
    .describe('Policies applied when a token has no policy claim: policy ids, or <namespace>/<name> of a SecurityPolicy resource.'),
  jwt_not_before_validation_skew: z.int().min(0).optional(),
  jwt_issued_at_validation_skew: z.int().min(0).optional(),
  jwt_expires_at_validation_skew: z.int().min(0).optional(),
  jwt_skip_kid: z.boolean().optional().describe("Ignore the token's kid header when choosing the key."),
  jwt_scope_claim_name: z.string().optional().describe('Claim carrying scopes (default scope): a space-separated string or an array.'),
  jwt_scope_to_policy_mapping: z.record(z.string(), z.string()).optional().describe('Scope -> policy id applied to a JWT carrying that scope.'),
  basic_auth: z
    .object({
      disable_caching: z.boolean().optional().describe('Run the password hash check on every request.'),
      cache_ttl: z.int().min(0).optional().describe('Seconds a verified username/password stays verified (default 60).'),
      extract_from_body: z.boolean().optional(),
      body_user_regexp: z.string().optional(),
      body_password_regexp: z.string().optional(),
    })
    .optional()
    .describe('Basic authentication settings (use_basic_auth).'),
  enable_signature_checking: z
    .boolean()
    .optional()
    .describe('HMAC request signing: `Authorization: Signature keyId="..",algorithm="..",headers="..",signature=".."`, the key needs hmac_enabled.'),
  hmac_allowed_algorithms: z
    .array(z.string())
    .optional()
    .describe('Accepted signing algorithms (hmac-sha1, hmac-sha256, hmac-sha384, hmac-sha512); empty: all of them.'),
  hmac_allowed_clock_skew: z
    .number()
    .optional()
    .describe('Milliseconds the Date header may differ from the gateway clock; 0 or less: no window (a Date is still required).'),
  definition: VersionDefinition.optional().describe('How a request selects a version.'),
  version_data: VersionData.optional(),
  extended_paths: ExtendedPaths.optional(),
  global_rate_limit: GlobalRateLimit.optional(),
  CORS: Cors.optional(),
  use_oauth2: z
    .boolean()
    .optional()
    .describe('The gateway is an OAuth 2.0 authorization server for this API: bearer tokens issued under <listen path>/oauth/ (oauth_meta).'),
  oauth_meta: z
    .object({
      allowed_access_types: z
        .array(z.enum(['authorization_code', 'refresh_token', 'password', 'client_credentials']))
        .optional()
        .describe('Grant types the token endpoint accepts; refresh_token also makes it issue refresh tokens.'),
      allowed_authorize_types: z
        .array(z.enum(['code', 'token']))
        .optional()
        .describe('response_type values /oauth/authorize accepts.'),
      auth_login_redirect: z.string().optional().describe("The login page /oauth/authorize redirects to (307, with the request's query)."),
    })
    .optional()
    .describe('OAuth 2.0 authorization server settings (use_oauth2).'),
  notifications: z
    .object({
      shared_secret: z.string().optional().describe('Sent as X-Tyk-Shared-Secret with every notification.'),
      oauth_on_keychange_url: z.string().optional().describe('Receives a POST whenever an OAuth token is issued or refreshed.'),
    })
    .optional(),
  cache_options: CacheOptions.optional(),
  custom_middleware: FreeForm.optional().describe(
    'JavaScript plugins (driver otto): pre, post_key_auth, post and response lists of {name, path or code, require_session, disabled}, and auth_check (one such object: custom authentication); gRPC plugins (driver grpc): the same lists of {name, raw_body_only, disabled} and auth_check, with id_extractor (the session cache of the auth hook: extract_from header|form|body, extract_with value|regex|xpath, extractor_config); other drivers are refused by name.',
  ),
  enable_coprocess_auth: z
    .boolean()
    .optional()
    .describe("A gRPC plugin's custom_middleware.auth_check authenticates the API's requests (Tyk's coprocess auth)."),
  custom_plugin_auth_enabled: z.boolean().optional().describe("Same as enable_coprocess_auth (Tyk's newer name)."),
  disable_rate_limit: z.boolean().optional(),
  disable_quota: z.boolean().optional().describe('Do not enforce quotas on this API (OAS: skipQuota).'),
  dont_set_quota_on_create: z
    .boolean()
    .optional()
    .describe('Do not reset quota counters when keys are created or updated (DontSetQuotasOnCreate; OAS: skipQuotaReset).'),
  enable_context_vars: z.boolean().optional().describe('Expose request context variables to templates.'),
  response_processors: z
    .array(z.object({ name: z.string(), options: FreeForm.optional() }))
    .optional()
    .describe('Response middleware enabled for the API: response_body_transform (required by transform_response) and header_injector.'),
  enable_ip_whitelisting: z
    .boolean()
    .optional()
    .describe('Serve only clients in allowed_ips (a non-empty allowed_ips alone does, unless ip_access_control_disabled).'),
  allowed_ips: z
    .array(z.string())
    .optional()
    .describe('IPv4/IPv6 addresses and CIDR ranges allowed; others get 403 `access from this IP has been disallowed`.'),
  enable_ip_blacklisting: z
    .boolean()
    .optional()
    .describe('Refuse clients in blacklisted_ips (a non-empty blacklisted_ips alone does, unless ip_access_control_disabled).'),
  blacklisted_ips: z.array(z.string()).optional().describe('IPv4/IPv6 addresses and CIDR ranges refused with 403 `access from this IP has been disallowed`.'),
  ip_access_control_disabled: z.boolean().optional().describe('Ignore allowed_ips and blacklisted_ips unless their enable_ip_* flag is set (default false).'),
  certificates: z.array(z.string()).optional().describe("Certificate ids served for this API's domain."),
  client_certificates: z.array(z.string()).optional().describe('Certificate ids allowed for client mTLS.'),
  upstream_certificates: z
    .record(z.string(), z.string())
    .optional()
    .describe('Upstream mTLS: host (or *, *.domain, host:port) -> certificate id presented to that upstream.'),
  upstream_certificates_disabled: z.boolean().optional().describe('Ignore upstream_certificates (and the gateway-wide ones).'),
  pinned_public_keys: z
    .record(z.string(), z.string())
    .optional()
    .describe('Public key pinning: host (or *, *.domain) -> comma-separated certificate ids whose public keys the upstream must present.'),
  certificate_pinning_disabled: z.boolean().optional().describe('Ignore pinned_public_keys (and the gateway-wide ones).'),
  tags: z.array(z.string()).optional(),
  config_data: FreeForm.optional().describe('Free-form data handed to JavaScript plugins as config.config_data.'),
  config_data_disabled: z.boolean().optional().describe('Do not hand config_data to plugins.'),
  use_go_plugin_auth: z.boolean().optional().describe('Accepted for compatibility; refused when true (Go plugins are not supported).'),
  analytics_plugin: FreeForm.optional().describe('Accepted for compatibility; refused when enabled (Go plugins are not supported).'),
  enable_detailed_recording: z.boolean().optional(),
  detailed_tracing: z
    .boolean()
    .optional()
    .describe("With OpenTelemetry on (the gateway's opentelemetry.enabled): a span per pipeline step, not only per request."),
  do_not_track: z.boolean().optional(),
  session_lifetime: z.int().min(0).optional().describe('Accepted for compatibility; refused above 0 (a lifetime for the keys of an API is not supported yet).'),
  graphql: GraphqlSection.optional().describe('GraphQL API (proxyOnly): the schema requests are validated against.'),
};

export const ClassicApiDefinition = z.object(ClassicApiFields);
export type ClassicApiDefinition = z.infer<typeof ClassicApiDefinition>;
