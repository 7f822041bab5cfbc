// The extended_paths of a Classic API definition (classic.ts): the per-endpoint middleware entries — allow and
// block lists, mocks, timeouts, body and header transforms, size limits, JSON validation, URL rewrites, tracking,
// circuit breakers, response caching — and the cache options they work with. Field names are Tyk's.
import { z } from 'zod';
import { FreeForm } from './json.ts';
import { InternalLoopTarget } from './internal-loop-target.ts';

const HttpMethod = z
  .string()
  .regex(/^[A-Z]+$/)
  .describe('HTTP method in upper case, for example GET.');

/** A mock reply or pass-through for one method of an endpoint (white_list / black_list / ignored entries). */
export const MethodAction = z.object({
  action: z.enum(['no_action', 'reply']).describe('`reply` answers with code, data and headers without calling the upstream.'),
  code: z.int().min(100).max(599).optional().describe('Status code of the reply (default 200).'),
  data: z.string().optional().describe('Body of the reply.'),
  headers: z.record(z.string(), z.string()).optional().describe('Headers of the reply.'),
});

export const EndpointMeta = z.object({
  path: z.string().describe('Endpoint path relative to the listen path; `{name}` segments are wildcards matching anything.'),
  method: z.string().optional().describe('Method this entry applies to; empty means every method (see method_actions).'),
  ignore_case: z.boolean().optional().describe('Match the path case-insensitively.'),
  disabled: z.boolean().optional().describe('Keep the entry but do not apply it.'),
  method_actions: z.record(HttpMethod, MethodAction).optional().describe('Per-method action: a mock reply or no_action.'),
});

export type EndpointMeta = z.infer<typeof EndpointMeta>;

export const HardTimeout = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method.'),
  timeout: z.int().min(0).describe('Seconds the upstream has to answer; on expiry the gateway answers 504.'),
  disabled: z.boolean().optional(),
});

export const TemplateData = z.object({
  input_type: z.enum(['json', 'xml']).describe('Format of the request body the template reads.'),
  enable_session: z.boolean().optional().describe("Expose the key's meta_data to the template as `._gw_meta`."),
  template_mode: z.enum(['file', 'blob']).describe('`blob`: template_source is a base64 template; `file`: a path on the gateway.'),
  template_source: z.string().describe('Base64-encoded template (blob) or template file path (file).'),
});

export const BodyTransform = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method (PUT, POST or PATCH: only requests with a body are transformed).'),
  template_data: TemplateData,
  disabled: z.boolean().optional(),
});

export const SizeLimit = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method.'),
  size_limit: z.int().min(0).describe('Largest request body in bytes; larger ones get 413 `Request is too large` (0: no limit).'),
  disabled: z.boolean().optional(),
});

export const ValidateJson = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method.'),
  schema: FreeForm.describe('JSON Schema the request body must match (draft-07; a draft-04/06 `$schema` is read as draft-07).'),
  error_response_code: z.int().min(400).max(599).optional().describe('Status answered when the body does not match (default 422).'),
  disabled: z.boolean().optional(),
});

export const UrlRewriteMatch = z.object({
  match_rx: z.string().describe('RE2 regular expression (Go regexp syntax, as Tyk) the value must match.'),
  reverse: z.boolean().optional().describe('Match when the expression does NOT match.'),
});

export const HeaderTransform = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method.'),
  delete_headers: z.array(z.string()).optional().describe('Header names removed (before the additions).'),
  add_headers: z
    .record(z.string(), z.string())
    .optional()
    .describe('Headers set (replacing any value); `$gw_context.<name>` / `$tyk_context.<name>` and `$gw_meta.<name>` / `$tyk_meta.<name>` are substituted.'),
  act_on: z.boolean().optional().describe('Accepted for compatibility; Tyk ignores it too.'),
  disabled: z.boolean().optional(),
});

export const UrlRewriteTriggerOptions = z.object({
  header_matches: z.record(z.string(), UrlRewriteMatch).optional(),
  query_val_matches: z.record(z.string(), UrlRewriteMatch).optional(),
  path_part_matches: z.record(z.string(), UrlRewriteMatch).optional(),
  session_meta_matches: z.record(z.string(), UrlRewriteMatch).optional(),
  request_context_matches: z.record(z.string(), UrlRewriteMatch).optional(),
  payload_matches: UrlRewriteMatch.optional(),
});

export const UrlRewriteTrigger = z.object({
  on: z.enum(['any', 'all']).describe('Whether any or all of the options must match.'),
  options: UrlRewriteTriggerOptions,
  rewrite_to: z.string().optional().describe("Target when the trigger matches; wins over the rule's rewrite_to. Required unless rewrite_to_internal."),
  rewrite_to_internal: InternalLoopTarget.optional().describe('Tyk Operator: loop into another ApiDefinition; wins over rewrite_to.'),
});

export const UrlRewrite = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method.'),
  match_pattern: z.string().describe('RE2 regular expression (Go regexp syntax, as Tyk) tested against the path (relative to the listen path) and query.'),
  rewrite_to: z
    .string()
    .optional()
    .describe(
      "The new path (and query), or a loop (tyk://self/<path>, tyk://<api id or name>/<path>); `$1`.. are match_pattern's groups; context variables are substituted. Required unless rewrite_to_internal.",
    ),
  rewrite_to_internal: InternalLoopTarget.optional().describe('Tyk Operator: loop into another ApiDefinition; wins over rewrite_to.'),
  triggers: z.array(UrlRewriteTrigger).optional().describe('Conditions that rewrite elsewhere; the first matching trigger wins.'),
  disabled: z.boolean().optional(),
});

export const TrackEndpoint = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method.'),
  disabled: z.boolean().optional(),
});

/** A ratio written as text (Tyk Operator types threshold_percent as a string): 0 to 1, decimal notation. */
const RATIO_TEXT = /^(0(\.[0-9]+)?|1(\.0+)?|\.[0-9]+)$/;

export const CircuitBreaker = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: z.string().describe('HTTP method.'),
  threshold_percent: z
    .union([z.number().min(0).max(1), z.string().regex(RATIO_TEXT, 'must be a number from 0 to 1, such as "0.5"')])
    .optional()
    .describe(
      'Error ratio, 0 to 1 (0.5: half), over the last `samples` answers at or above which the breaker trips; a number, or a string holding one ("0.5", as Tyk Operator types it). Required (above 0) unless disabled.',
    ),
  samples: z
    .int()
    .min(0)
    .optional()
    .describe('How many of the latest answers are judged; the breaker trips only once this many were seen. Required (1 or more) unless disabled.'),
  return_to_service_after: z
    .int()
    .min(0)
    .optional()
    .describe('Seconds the breaker stays open (answering 503) before it lets a trial request through (default 0).'),
  disable_half_open_state: z
    .boolean()
    .optional()
    .describe('Close the breaker outright after return_to_service_after instead of letting one trial request decide.'),
  disabled: z.boolean().optional(),
});

const SafeMethod = z.enum(['GET', 'HEAD', 'OPTIONS']).describe('GET, HEAD or OPTIONS: only safe requests are cached.');

export const AdvanceCacheConfig = z.object({
  path: z.string().describe('Endpoint path; `{name}` segments are wildcards.'),
  method: SafeMethod,
  cache_response_codes: z
    .array(z.int().min(100).max(599))
    .optional()
    .describe('Only answers with these statuses are cached (replaces cache_options.cache_response_codes for this endpoint).'),
  cache_key_regex: z.string().optional().describe('Accepted for compatibility: Tyk applies it to POST/PUT/PATCH bodies, which are never cached here.'),
  timeout: z.int().min(0).optional().describe('Seconds an answer stays cached (0: cache_options.cache_timeout).'),
  disabled: z.boolean().optional(),
});

export const CacheOptions = z
  .object({
    enable_cache: z
      .boolean()
      .optional()
      .describe('Cache answers of safe requests (GET, HEAD, OPTIONS) on the endpoints named in extended_paths.cache / advance_cache_config.'),
    cache_timeout: z.int().min(0).optional().describe('Seconds an answer stays cached (default 60).'),
    cache_all_safe_requests: z.boolean().optional().describe('Cache the answers of every GET, HEAD and OPTIONS request of the API.'),
    cache_response_codes: z.array(z.int().min(100).max(599)).optional().describe('Only answers with these statuses are cached; empty: any status.'),
    enable_upstream_cache_control: z
      .boolean()
      .optional()
      .describe('Cache only answers carrying X-Gw-Cache-Action-Set (or X-Tyk-Cache-Action-Set); the TTL header overrides cache_timeout.'),
    cache_control_ttl_header: z
      .string()
      .optional()
      .describe('Upstream header giving the TTL in seconds (default X-Gw-Cache-Action-Set-Ttl, X-Tyk-Cache-Action-Set-Ttl also read).'),
    cache_by_headers: z.array(z.string()).optional().describe('Request headers whose values join the cache key.'),
  })
  .describe("Response caching (Tyk's cache_options).");

export type CacheOptions = z.infer<typeof CacheOptions>;

export const ResponseBodyTransform = BodyTransform.extend({ method: z.string().describe('HTTP method of the request whose answer is transformed.') });

export const ExtendedPaths = z
  .object({
    ignored: z.array(EndpointMeta).optional().describe('Endpoints served without authentication, rate limiting or quota.'),
    white_list: z.array(EndpointMeta).optional().describe('When present, only these endpoints are allowed.'),
    black_list: z.array(EndpointMeta).optional().describe('Endpoints answered 403 `Requested endpoint is forbidden`.'),
    hard_timeouts: z.array(HardTimeout).optional().describe('Enforced upstream timeouts per endpoint.'),
    transform: z.array(BodyTransform).optional().describe('Request body transforms (Go templates) per endpoint.'),
    size_limits: z.array(SizeLimit).optional().describe('Request body size limits per endpoint.'),
    validate_json: z.array(ValidateJson).optional().describe('JSON Schema validation of request bodies per endpoint.'),
    circuit_breakers: z.array(CircuitBreaker).optional().describe('Circuit breakers per endpoint: 503 while the upstream fails too often.'),
    cache: z.array(z.string()).optional().describe('Endpoints whose GET, HEAD and OPTIONS answers are cached (with cache_options.enable_cache).'),
    advance_cache_config: z
      .array(AdvanceCacheConfig)
      .optional()
      .describe('Cached endpoints with their own statuses and TTL (with cache_options.enable_cache).'),
    track_endpoints: z
      .array(TrackEndpoint)
      .optional()
      .describe('Endpoints whose analytics records carry the endpoint (its path template), so analytics can group by endpoint.'),
    do_not_track_endpoints: z.array(TrackEndpoint).optional().describe('Endpoints whose requests produce no analytics record.'),
    internal: z
      .array(TrackEndpoint)
      .optional()
      .describe('Endpoints reachable only through internal looping (tyk://): called directly, 403 `Requested endpoint is forbidden`.'),
    virtual: z
      .array(FreeForm)
      .optional()
      .describe(
        'Virtual endpoints: {path, method, response_function_name, function_source_type file|blob, function_source_uri, use_session, proxy_on_error, disabled}, answered by a JavaScript function.',
      ),
    transform_response: z
      .array(ResponseBodyTransform)
      .optional()
      .describe('Response body transforms (Go templates) per endpoint; need response_processors [{name: response_body_transform}].'),
    transform_headers: z.array(HeaderTransform).optional().describe('Request header transforms per endpoint.'),
    transform_response_headers: z.array(HeaderTransform).optional().describe('Response header transforms per endpoint.'),
    url_rewrites: z.array(UrlRewrite).optional().describe('Upstream path rewrites per endpoint.'),
  })
  .describe('Per-endpoint middleware.');

export type ExtendedPaths = z.infer<typeof ExtendedPaths>;
