// The gateway's configuration: a JSON file using gw\'s documented and Tyk's key names, overridden key by key by
// environment variables named GW_GATEWAY_<PATH> (the key path in upper case, dots as underscores: storage.type is
// GW_GATEWAY_STORAGE_TYPE; reading and overriding: config/file-and-env.ts). Every option is declared once here with
// its default and description; `gw gateway --config-reference` prints them and the README's table is generated from
// the same list. The option groups live in config/ (licensed mode, storage, request limits, TLS and trust), spread
// here in the order --config-reference prints them.
//
// Relative paths (app_path, policies.policy_path, storage.path) are resolved against the config file's directory.
// A missing or invalid value stops the gateway at start with one line per problem naming the key.
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { configOptions, readConfig, type ConfigOption, type LoadedConfig } from '../config/file-and-env.ts';
import { coprocessOptions } from './config/coprocess.ts';
import { licensedModeOptions, licensedModeProblems } from './config/licensed-mode.ts';
import { requestLimitOptions } from './config/request-limits.ts';
import { storageOptions } from './config/storage.ts';
import { basicAuthChecksOptions, httpServerOptions, upstreamAndTrustOptions } from './config/tls-and-trust.ts';
import { tcpProxyOptions } from './config/tcp-proxy.ts';
import { TracingConfigSchema } from '../tracing/config.ts';

const port = z.int().min(0).max(65535);

export const GatewayConfigSchema = z.object({
  listen_address: z.string().default('0.0.0.0').describe('Address the gateway listens on.'),
  listen_port: port.default(8080).describe('Port of the proxy (and of the management API unless control_api_port is set).'),
  secret: z
    .string({ error: 'secret is required: the management API (header x-gw-authorization) must be protected' })
    .min(1, 'secret must not be empty: the management API (header x-gw-authorization) must be protected')
    .describe("Shared secret of the management API, sent in header x-gw-authorization (or Tyk's x-tyk-authorization). Required."),
  workers: z
    .int()
    .min(0)
    .max(256)
    .default(0)
    .describe(
      'Threads serving clients and the management API, each accepting connections on the same ports; rate limits and quotas stay exact across them. 0: one per core the process may use (os.availableParallelism(), which follows a container CPU limit); 1: one thread, no primary. Licensed mode (use_db_app_configs, policy_source service) runs one.',
    ),
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
  ...licensedModeOptions,
  hash_keys: z.boolean().default(true).describe('Store keys by their SHA-256 hash, never in clear.'),
  enable_hashed_keys_listing: z.boolean().default(false).describe('Allow GET /gw/keys to list key hashes when hash_keys is on.'),
  oauth_token_expire: z.int().min(1).default(3600).describe('Seconds an OAuth access token lives (use_oauth2 APIs).'),
  oauth_refresh_token_expire: z.int().min(1).default(1209600).describe('Seconds an OAuth refresh token lives (default 14 days).'),
  oauth_redirect_uri_separator: z
    .string()
    .default('')
    .describe("Splits an OAuth client's redirect_uri into several registered URIs (e.g. `;`); empty: one URI."),
  oauth_error_status_code: z.int().min(400).max(599).default(403).describe("Status of the OAuth token endpoint's refusals."),
  min_token_length: z.int().min(1).default(3).describe('Credentials shorter than this are rejected without a lookup.'),
  storage: storageOptions,
  group_id: z.string().default('default').describe('Gateways with the same group_id (and Redis) reload together on /gw/reload/group.'),
  basic_auth_checks: basicAuthChecksOptions,
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
  ...requestLimitOptions,
  http_server_options: httpServerOptions,
  ...tcpProxyOptions,
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
  jsvm_workers: z
    .int()
    .positive()
    .default(2)
    .describe(
      'Worker threads running JavaScript plugins (calls running at once). While every worker runs a call past 100 ms, APIs holding none get up to as many extra workers, ended once idle.',
    ),
  jsvm_queue: z.int().min(0).default(1000).describe("JavaScript plugin calls waiting for a worker, at most half of them one API's; more get 500 at once."),
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
  ...coprocessOptions,
  uptime_tests: z
    .object({
      disable: z.boolean().default(false).describe("Run no API's uptime tests (every host counts as up)."),
      poller_group: z.string().default('').describe('Accepted (Tyk: which gateways share the checks); every gw gateway checks on its own.'),
      config: z
        .object({
          failure_trigger_sample_size: z
            .int()
            .min(1)
            .default(3)
            .describe(
              'Failed checks that mark a host down (HostDown; successes before do not reset the count, as in Tyk); as many successes bring it back (HostUp).',
            ),
          time_wait: z.number().positive().default(10).describe('Seconds between two rounds of checks, and the timeout of a check that sets none.'),
          checker_pool_size: z.int().min(0).default(0).describe('Checks run at once at most; 0: the number of CPUs (as Tyk).'),
          enable_uptime_analytics: z.boolean().default(false).describe('Accepted; gw records no uptime analytics.'),
        })
        .prefault({}),
    })
    .prefault({})
    .describe("The gateway's side of APIs' uptime_tests: how often, how many failures mark a host down."),
  event_webhooks: z
    .array(
      z.object({
        url: z.string().url(),
        events: z
          .array(z.enum(['RateLimitExceeded', 'QuotaExceeded', 'TriggerExceeded', 'BreakerTriggered', 'BreakerTripped', 'BreakerReset', 'HostDown', 'HostUp']))
          .min(1),
        headers: z.record(z.string(), z.string()).default({}),
      }),
    )
    .default([])
    .describe('Webhooks receiving events as JSON POSTs: [{url, events, headers}].'),
  ...upstreamAndTrustOptions,
  opentelemetry: TracingConfigSchema.describe(
    "OpenTelemetry tracing (Tyk's `opentelemetry`): a server span per request, a client span per upstream call, a span per pipeline step for APIs with detailed_tracing, exported over OTLP.",
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

function absolute(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}
