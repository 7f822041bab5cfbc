// The gateway's configuration: a JSON file using gw\'s documented and Tyk's key names, overridden key by key by
// environment variables named GW_GATEWAY_<PATH> (the key path in upper case, dots as underscores: storage.type is
// GW_GATEWAY_STORAGE_TYPE; reading and overriding: config/file-and-env.ts). Every option is declared once here with
// its default and description; `gw gateway --config-reference` prints them and the README's table is generated from
// the same list.
//
// Relative paths (app_path, policies.policy_path, storage.path) are resolved against the config file's directory.
// A missing or invalid value stops the gateway at start with one line per problem naming the key.
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { configOptions, readConfig, type ConfigOption, type LoadedConfig } from '../config/file-and-env.ts';
import { parseAddressRange } from './proxy/trusted-proxies.ts';
import { isJwksHostEntry } from './credentials/jwks-hosts.ts';
import { MAX_RECORDS_PER_BATCH } from '../api/analytics-record.ts';

const port = z.int().min(0).max(65535);

export const GatewayConfigSchema = z.object({
  listen_address: z.string().default('0.0.0.0').describe('Address the gateway listens on.'),
  listen_port: port.default(8080).describe('Port of the proxy (and of the management API unless control_api_port is set).'),
  secret: z
    .string({ error: 'secret is required: the management API (header x-gw-authorization) must be protected' })
    .min(1, 'secret must not be empty: the management API (header x-gw-authorization) must be protected')
    .describe('Shared secret of the management API, sent in header x-gw-authorization. Required.'),
  control_api_port: port.default(0).describe('Separate port for the management API, health, readiness and metrics; 0 serves them on listen_port.'),
  app_path: z
    .string()
    .default('apps')
    .describe('Directory of API definition files (file mode), loaded at start and on reload; a missing directory loads nothing.'),
  policies: z
    .object({
      policy_source: z
        .enum(['file', 'service'])
        .default('file')
        .describe(
          'Where policies come from besides the management API: `file` reads policy_path; `service` takes them from the dashboard (db_app_conf_options).',
        ),
      policy_path: z.string().default('policies/policies.json').describe('JSON file mapping policy id to policy (file mode), loaded at start and on reload.'),
      allow_explicit_policy_id: z.boolean().default(true).describe('Keep the policy ids given by clients (needed by the operator); false generates ids.'),
    })
    .prefault({}),
  use_db_app_configs: z
    .boolean()
    .default(false)
    .describe(
      'Licensed mode: load APIs and keys from the dashboard named by db_app_conf_options (instead of app_path), reload when they change, keep serving the last good copy while it is unreachable.',
    ),
  db_app_conf_options: z
    .object({
      connection_string: z.string().default('').describe('Dashboard URL, e.g. http://dashboard:3000 (licensed mode).'),
      node_secret: z.string().default('').describe("The dashboard's node_secret, sent in header x-gw-node-secret (licensed mode)."),
      org_id: z.string().default('').describe("Load only this organisation's APIs, policies and keys; empty: every organisation."),
      poll_interval_seconds: z
        .number()
        .positive()
        .default(5)
        .describe('How often the dashboard is asked for changes (a conditional request: unchanged costs one 304).'),
    })
    .prefault({}),
  enable_analytics: z
    .boolean()
    .default(true)
    .describe(
      'Licensed mode: record one analytics record per proxied request and ship them to the dashboard (POST /system/analytics). Without a dashboard (ce mode) nothing is recorded.',
    ),
  analytics_config: z
    .object({
      enable_detailed_recording: z
        .boolean()
        .default(false)
        .describe('Every record carries the request and response (as if every key and API had enable_detailed_recording).'),
      detailed_body_bytes: z
        .int()
        .min(0)
        .max(1024 * 1024)
        .default(4096)
        .describe('Most bytes of a request or response body a detailed record keeps (the rest is cut).'),
      max_buffered_records: z
        .int()
        .min(1)
        .default(20_000)
        .describe(
          'Records held in memory while they wait to be shipped (the dashboard slow or down); beyond, each new record is dropped and counted in gw_analytics_records_dropped_total{reason="buffer_full"}.',
        ),
      batch_size: z.int().min(1).max(MAX_RECORDS_PER_BATCH).default(500).describe('Most records per POST to the dashboard; a full batch leaves at once.'),
      flush_interval: z.int().min(10).default(1000).describe('Milliseconds between shipments of a partial batch.'),
      retry_initial_ms: z.int().min(1).default(500).describe('First wait before shipping again after the dashboard failed; doubles on each failure.'),
      retry_max_ms: z.int().min(1).default(30_000).describe('Longest wait between shipping attempts while the dashboard is down.'),
      shutdown_flush_ms: z
        .int()
        .min(0)
        .default(5000)
        .describe(
          "On graceful shutdown, how long buffered records may take to ship; what is left then, or after the dashboard's first failure, is dropped (and counted).",
        ),
    })
    .prefault({}),
  hash_keys: z.boolean().default(true).describe('Store keys by their SHA-256 hash, never in clear.'),
  enable_hashed_keys_listing: z.boolean().default(false).describe('Allow GET /gw/keys to list key hashes when hash_keys is on.'),
  min_token_length: z.int().min(1).default(3).describe('Credentials shorter than this are rejected without a lookup.'),
  storage: z
    .object({
      type: z.enum(['embedded', 'redis']).default('embedded').describe('`embedded`: on local disk, one gateway; `redis`: shared by several gateways.'),
      path: z.string().default('data').describe('embedded: directory of the store (APIs, policies, keys, quota counters).'),
      sync_counters: z
        .boolean()
        .default(false)
        .describe(
          'embedded: write every quota count before the request goes on, so a SIGKILL loses none; off, counts reach disk within milliseconds in batches (a synchronous write stalls all requests while the disk commits).',
        ),
      host: z.string().default('127.0.0.1').describe('redis: host.'),
      port: port.default(6379).describe('redis: port.'),
      username: z.string().default('').describe('redis: ACL user name (empty: none).'),
      password: z.string().default('').describe('redis: password (empty: none).'),
      database: z.int().min(0).default(0).describe('redis: database number.'),
      key_prefix: z.string().default('gw:').describe('redis: prefix of every key the gateway writes.'),
    })
    .prefault({}),
  group_id: z.string().default('default').describe('Gateways with the same group_id (and Redis) reload together on /gw/reload/group.'),
  basic_auth_checks: z
    .object({
      hash_workers: z
        .int()
        .min(1)
        .max(64)
        .default(1)
        .describe(
          'Worker threads checking basic-auth passwords, and hashing those of keys written through the management API (bcrypt), off the event loop: jobs running at once.',
        ),
      hash_queue: z
        .int()
        .min(0)
        .default(32)
        .describe('Password checks and key-write hashes waiting for a worker; more are refused with 503 (checks with Retry-After).'),
      failure_cache_seconds: z
        .number()
        .min(0)
        .default(10)
        .describe('Seconds a failed password check is remembered, so repeating a wrong guess runs no bcrypt; 0 never remembers one.'),
      max_failures_per_user: z
        .int()
        .min(1)
        .default(5)
        .describe(
          'Failed basic-auth checks of one user (organisation and username) within lockout_window_seconds that lock that user out: 429 with Retry-After, even for the right password, until the lock-out ends.',
        ),
      max_failures_per_client: z
        .int()
        .min(1)
        .default(20)
        .describe(
          'Failed basic-auth checks from one client address (from a peer in trusted_proxies, the X-Forwarded-For address it appended) within lockout_window_seconds that lock that client out.',
        ),
      lockout_window_seconds: z
        .number()
        .positive()
        .default(300)
        .describe("The window failures are counted in, and the first lock-out's length; each further lock-out doubles, up to max_lockout_seconds."),
      max_lockout_seconds: z.number().positive().default(3600).describe('The longest lock-out.'),
      tracked_entries: z
        .int()
        .min(1)
        .default(10_000)
        .describe('Users and clients the lock-out tracks (each; least recently seen forgotten first), and credentials each password cache remembers.'),
    })
    .prefault({}),
  local_session_cache: z
    .object({
      cached_session_timeout: z
        .number()
        .min(0)
        .default(10)
        .describe(
          "Seconds a key read from the store is served from memory before it is read again (Tyk's name and default); bounds how long a change another gateway announced but this one missed can go unseen. 0 reads the store on every request.",
        ),
    })
    .prefault({}),
  enforce_org_quotas: z.boolean().default(false).describe('Enforce organisation quotas and rate limits (set through /gw/org/keys).'),
  rate_limit_response_headers: z
    .enum(['quotas', 'rate_limits'])
    .default('quotas')
    .describe('What X-RateLimit-Limit/Remaining/Reset report: the quota or the rate limit.'),
  client_connections: z
    .object({
      headers_timeout_seconds: z
        .number()
        .positive()
        .default(10)
        .describe('Seconds a client has to send the complete request headers; a slower one gets 408 and is disconnected.'),
      request_timeout_seconds: z
        .number()
        .positive()
        .default(120)
        .describe(
          'Seconds a client has to send the whole request, headers and body (408 and disconnect after). Raise it for large uploads over slow links; at least headers_timeout_seconds.',
        ),
      keep_alive_timeout_seconds: z
        .number()
        .positive()
        .default(65)
        .describe(
          'Seconds an idle keep-alive connection is kept; longer than the idle timeout of a load balancer in front (commonly 60 s), so the gateway never closes a connection the balancer is about to reuse.',
        ),
      max_connections: z
        .int()
        .positive()
        .default(10_000)
        .describe(
          'Client connections the proxy port holds at once (per process); a connection beyond it is closed as soon as it is accepted. With control_api_port set, management, health and metrics connections are not counted.',
        ),
    })
    .prefault({})
    .refine((limits) => limits.headers_timeout_seconds <= limits.request_timeout_seconds, {
      message: 'headers_timeout_seconds must not exceed request_timeout_seconds',
      path: ['headers_timeout_seconds'],
    })
    .describe('Timeouts and the connection limit for clients: what a reverse proxy facing the internet needs against slow or idle clients.'),
  proxy_default_timeout: z.number().positive().default(30).describe('Seconds an upstream has to answer when no enforced timeout applies (504 after).'),
  control_api_max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('Largest management API request body; larger ones get 413.'),
  max_request_body_size: z
    .int()
    .min(0)
    .default(0)
    .describe(
      "Largest request body in bytes the gateway forwards for any API (Tyk's http_server_options.max_request_body_size); larger ones get 413 `Request is too large`. 0: no gateway-wide limit (APIs may still set global_size_limit and size_limits).",
    ),
  enable_jsvm: z
    .boolean()
    .default(false)
    .describe(
      "Run JavaScript plugins (custom_middleware with driver otto) and virtual endpoints, as Tyk's enable_jsvm; without it an API using them is not served.",
    ),
  jsvm_timeout: z
    .number()
    .positive()
    .default(5)
    .describe('Seconds one JavaScript plugin call may take; past it the request gets 500 and the worker running it is replaced.'),
  jsvm_workers: z.int().positive().default(2).describe('Worker threads running JavaScript plugins (calls running at once).'),
  jsvm_queue: z.int().min(0).default(1000).describe('JavaScript plugin calls waiting for a worker; more get 500 at once.'),
  jsvm_memory_mb: z
    .int()
    .min(16)
    .default(128)
    .describe('Heap limit in megabytes of each plugin worker; a plugin exceeding it fails its request with 500 and the worker is replaced.'),
  jsvm_max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe(
      'Largest request body a JavaScript plugin or virtual endpoint is given, and largest answer TykMakeHttpRequest reads; larger request bodies get 413.',
    ),
  validate_json_max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('Largest request body JSON Schema validation (validate_json, validateRequest) reads; larger ones get 413 `Request is too large`.'),
  graphql: z
    .object({
      max_body_bytes: z
        .int()
        .positive()
        .default(1024 * 1024)
        .describe('Largest GraphQL request body (POST) the gateway reads to validate it; larger ones get 413 `Request is too large`.'),
      max_query_bytes: z
        .int()
        .positive()
        .default(64 * 1024)
        .describe('Longest query text accepted (POST or GET); a longer one gets 413 with a GraphQL error naming this limit.'),
      max_aliases: z
        .int()
        .min(0)
        .default(30)
        .describe(
          'Most aliased fields one operation may select (fragments counted where they are spread); more get 400 with a GraphQL error naming this limit.',
        ),
      document_cache_entries: z
        .int()
        .min(0)
        .default(1000)
        .describe(
          'Parsed and validated query documents kept per GraphQL API (least recently used evicted), so a repeated query is not parsed again; 0 disables the cache.',
        ),
      subgraph_timeout_ms: z
        .int()
        .positive()
        .default(10_000)
        .describe(
          'Supergraph APIs: how long one subgraph request may take before it is aborted; its fields are then null with an error, the rest of the result is returned. A subgraph entry may set its own timeout_ms.',
        ),
    })
    .prefault({})
    .describe(
      'Limits of GraphQL APIs (graphql.enabled): what the gateway reads and validates before the upstream (or, for supergraph APIs, any subgraph) sees a query, and how long a subgraph may take.',
    ),
  transform_max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe(
      'Largest request body a body transform reads (it buffers the body to run the template); larger ones get 413 `Request is too large`. Bodies of requests no transform applies to stream and are not limited by it.',
    ),
  transform_timeout_ms: z
    .int()
    .positive()
    .default(1000)
    .describe('Longest a body transform template may run; one that runs longer is stopped and the request answered 500 `Body transform failure`.'),
  cache_max_entry_bytes: z
    .int()
    .positive()
    .default(1024 * 1024)
    .describe('Largest answer body the response cache (cache_options) stores; a larger answer is served but not cached.'),
  cache_memory_bytes: z
    .int()
    .positive()
    .default(64 * 1024 * 1024)
    .describe(
      'Memory the embedded store gives cached answers; beyond it the oldest entries are dropped. (With Redis the cache is in Redis, bounded by its maxmemory policy.)',
    ),
  http_server_options: z
    .object({
      use_ssl: z.boolean().default(false).describe('Serve listen_port over TLS (HTTPS) instead of plain HTTP.'),
      https_port: port
        .default(0)
        .describe(
          'An additional HTTPS listener beside the plain listen_port (same address, same APIs); 0 opens none. Ours: Tyk opens extra ports per API instead.',
        ),
      certificates: z
        .array(z.object({ domain_name: z.string().min(1), cert_file: z.string().min(1), key_file: z.string().min(1) }))
        .default([])
        .describe('Certificates from PEM files, each served for its domain_name (SNI); the first is the default.'),
      ssl_certificates: z
        .array(z.string().min(1))
        .default([])
        .describe('Certificate store ids (with their private key) served on the TLS listeners, indexed by their CN and DNS names.'),
      min_version: z
        .union([z.literal(769), z.literal(770), z.literal(771), z.literal(772)])
        .default(771)
        .describe('Lowest TLS version accepted, as Tyk codes it: 769 TLS 1.0, 770 TLS 1.1, 771 TLS 1.2 (default), 772 TLS 1.3.'),
    })
    .prefault({})
    .describe('TLS listeners: HTTPS on listen_port (use_ssl) and/or on https_port, certificates chosen by SNI.'),
  hide_generator_header: z.boolean().default(false).describe('Do not send X-Generator on error responses.'),
  health_check_endpoint_name: z.string().default('hello').describe('Liveness endpoint: GET /<name>. Readiness is GET /ready.'),
  metrics_path: z.string().default('/metrics').describe('Prometheus metrics endpoint on the control port; empty disables it.'),
  monitor: z
    .object({
      enable_trigger_monitors: z.boolean().default(false).describe('Raise TriggerExceeded when quota usage reaches global_trigger_limit percent.'),
      global_trigger_limit: z.number().min(0).max(100).default(80).describe('Quota usage percentage that raises TriggerExceeded.'),
      monitor_user_keys: z.boolean().default(false).describe('Monitor the quotas of keys.'),
      monitor_org_keys: z.boolean().default(false).describe('Monitor organisation quotas.'),
    })
    .prefault({}),
  event_webhooks: z
    .array(
      z.object({
        url: z.string().url(),
        events: z.array(z.enum(['RateLimitExceeded', 'QuotaExceeded', 'TriggerExceeded', 'BreakerTriggered', 'BreakerTripped', 'BreakerReset'])).min(1),
        headers: z.record(z.string(), z.string()).default({}),
      }),
    )
    .default([])
    .describe('Webhooks receiving events as JSON POSTs: [{url, events, headers}].'),
  security: z
    .object({
      certificates: z
        .object({
          upstream: z
            .record(z.string(), z.string())
            .default({})
            .describe("Upstream mTLS for every API: host (or *, *.domain, host:port) -> certificate store id; an API's upstream_certificates win."),
        })
        .prefault({}),
      pinned_public_keys: z
        .record(z.string(), z.string())
        .default({})
        .describe(
          "Public key pinning for every API: host (or *, *.domain) -> comma-separated certificate store ids (or PEM); an API's pinned_public_keys win.",
        ),
    })
    .prefault({})
    .describe("Gateway-wide upstream certificates and pinned public keys, merged under each API's own."),
  upstream_hosts: z
    .record(z.string(), z.string())
    .default({})
    .describe('Host name -> address used to reach upstreams (like /etc/hosts), e.g. {"httpbin.default.svc": "127.0.0.1"}.'),
  jwks: z
    .object({
      allowed_hosts: z
        .array(z.string().refine(isJwksHostEntry, { error: 'must be a host name, *.domain or an IP address, e.g. idp.example.com or *.auth0.com' }))
        .default([])
        .describe(
          'Hosts JWT APIs may fetch JWKS keys from (jwt_source / jwksURIs URLs): host names, *.domain (any name under it) or IP addresses; a URL on another host is never fetched and its tokens are refused. Empty: every host, internal addresses included: set it wherever untrusted users write APIs.',
        ),
    })
    .prefault({})
    .describe('JWKS fetching.'),
  trusted_proxies: z
    .array(
      z.string().refine((entry) => parseAddressRange(entry) !== undefined, { error: 'must be an IP address or a CIDR range, e.g. 10.0.0.0/8 or fd00::/8' }),
    )
    .default([])
    .describe(
      'Peers (IP addresses or CIDR ranges) allowed to forward for clients, e.g. ["10.0.0.0/8"]: a request from one of them has its address appended to X-Forwarded-For and keeps its X-Forwarded-Proto/-Host; from any other peer the gateway overwrites all three with what it saw. The IP allow and block lists read the client from X-Forwarded-For only from these peers. Empty: trust no one.',
    ),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('Log level.'),
});

export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;

export const ENV_PREFIX = 'GW_GATEWAY_';

/** Every leaf option: its dotted key, environment variable, default and description. */
export function configReference(): ConfigOption[] {
  return configOptions(GatewayConfigSchema, ENV_PREFIX);
}

/** Reads the JSON config file (optional: defaults and environment alone may do), applies environment overrides. */
export function loadGatewayConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): LoadedConfig<GatewayConfig> {
  const loaded = readConfig(GatewayConfigSchema, { file, env, envPrefix: ENV_PREFIX, what: 'gateway' }, licensedModeProblems);
  const config = loaded.config;
  config.app_path = absolute(loaded.base, config.app_path);
  config.policies.policy_path = absolute(loaded.base, config.policies.policy_path);
  config.storage.path = absolute(loaded.base, config.storage.path);
  return { config: loaded.config, unknownKeys: loaded.unknownKeys };
}

/** Licensed mode needs the dashboard's address and node secret. */
function licensedModeProblems(config: GatewayConfig): string[] {
  if (!config.use_db_app_configs && config.policies.policy_source !== 'service') return [];
  const dashboard = config.db_app_conf_options;
  const why = config.use_db_app_configs ? 'use_db_app_configs is true' : 'policies.policy_source is service';
  const problems: string[] = [];
  if (!/^https?:\/\//.test(dashboard.connection_string))
    problems.push(`db_app_conf_options.connection_string: the dashboard URL (http:// or https://) is required when ${why}`);
  if (!dashboard.node_secret) problems.push(`db_app_conf_options.node_secret: required when ${why}`);
  return problems;
}

function absolute(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}
