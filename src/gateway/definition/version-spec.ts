// One version of an API (VersionSpec) and the endpoint rules it holds: allow/block/ignore lists and mocks, timeouts,
// body and header transforms, URL rewrites, size limits, JSON validation, circuit breakers, caching and analytics
// tracking; and the upstream target an API or version forwards to. Built at load by from-classic.ts / from-oas.ts with every pattern compiled; the request path only reads it.
import type { ValidateFunction } from 'ajv';
import type { LinearRegexp } from '../../domain/bounded-regexp.ts';
import type { CompiledTemplate, InputFormat } from '../template/engine.ts';
import type { PathPattern } from './path-pattern.ts';
import type { VirtualEndpointRule } from './plugin-types.ts';
import type { VariableText } from './variable-text.ts';

/** Where an API (or a version's override_target) forwards to. */
export interface UpstreamTarget {
  /** scheme://host:port the connection pool dials. */
  origin: string;
  /** Host header sent upstream (unless the client's is preserved). */
  host: string;
  /** Path prefix of the target URL, without a trailing slash ('' for none). */
  basePath: string;
}

export interface MockReply {
  code: number;
  body: string;
  headers: [string, string][];
}

/** An entry of white_list / black_list / ignored. */
export interface EndpointEntry {
  pattern: PathPattern;
  /** Methods it applies to; empty = every method. */
  methods: Set<string>;
  /** Mock replies by method (method_actions with action `reply`). */
  replies: Map<string, MockReply>;
}

export interface TimeoutRule {
  pattern: PathPattern;
  method: string;
  timeoutMs: number;
}

/** A request body transform (Classic extended_paths.transform, OAS transformRequestBody), its template compiled. */
export interface BodyTransformRule {
  pattern: PathPattern;
  /** PUT, POST or PATCH for a request transform; any method for a response transform. */
  method: string;
  format: InputFormat;
  /** Expose the key's meta_data as ._gw_meta. */
  enableSession: boolean;
  template: CompiledTemplate;
}

/** A request or response header transform: `remove` first, then `add` (set, replacing), for one path and method. */
export interface HeaderTransformRule {
  pattern: PathPattern;
  method: string;
  /** Lower-case names. */
  remove: string[];
  add: { name: string; value: VariableText }[];
}

/** What a URL rewrite trigger's condition reads. */
export type RewriteSource = 'header' | 'query' | 'path' | 'meta' | 'context' | 'payload';

export interface RewriteCondition {
  source: RewriteSource;
  /** Header (lower-case), query parameter, meta_data key or context variable; for `path`, a label; '' for payload. */
  name: string;
  /** The name as configured: trigger captures are `$gw_context.trigger-<t>-<label>-<i>`. */
  label: string;
  regexp: LinearRegexp;
  /** Matches when the expression does NOT match. */
  reverse: boolean;
}

export interface RewriteTrigger {
  on: 'any' | 'all';
  conditions: RewriteCondition[];
  rewriteTo: VariableText;
}

/** A URL rewrite (Classic url_rewrites, OAS urlRewrite): first match of method and path applies. */
export interface UrlRewriteRule {
  pattern: PathPattern;
  method: string;
  /** Tested against the path relative to the listen path plus the query; `$N` in rewriteTo are its groups. */
  match: LinearRegexp;
  rewriteTo: VariableText;
  triggers: RewriteTrigger[];
  /** A trigger reads the body (payload_matches / requestBody). */
  readsBody: boolean;
  /** A target is Tyk's tyk:// looping URL (the API then gets the loop step: looping/loop-step.ts). */
  loops: boolean;
}

export interface VersionSpec {
  name: string;
  /** Unix ms after which the version answers 403; undefined never expires. */
  expiresAt?: number;
  whiteList: EndpointEntry[];
  blackList: EndpointEntry[];
  ignored: EndpointEntry[];
  /** Mocks that answer after authentication (OAS mockResponse). Classic mocks live in the lists above. */
  authenticatedMocks: EndpointEntry[];
  timeouts: TimeoutRule[];
  bodyTransforms: BodyTransformRule[];
  /** Response body transforms (Classic transform_response, OAS transformResponseBody); first match applies. */
  responseBodyTransforms: BodyTransformRule[];
  /** Header transforms (request: transform_headers; response: transform_response_headers); first match applies. */
  requestHeaders: HeaderTransformRule[];
  responseHeaders: HeaderTransformRule[];
  urlRewrites: UrlRewriteRule[];
  overrideTarget?: UpstreamTarget;
  /** Request body limits per endpoint (Classic size_limits, OAS requestSizeLimit); absent: none. */
  sizeLimits?: SizeLimitRule[];
  /** Bytes: the version's global_size_limit; absent: none. */
  globalSizeLimit?: number;
  /** JSON Schema validation of request bodies (Classic validate_json, OAS validateRequest); absent: none. */
  jsonValidations?: JsonValidationRule[];
  /** Circuit breakers per endpoint (Classic circuit_breakers); absent: none. */
  circuitBreakers?: CircuitBreakerRule[];
  /** Response caching (cache_options + extended_paths.cache / advance_cache_config); absent: the version caches nothing. */
  cache?: CacheSpec;
  /** global_headers / global_headers_remove: applied to every request of the version before it is forwarded. */
  globalRequestHeaders?: HeaderEdits;
  /** global_response_headers / global_response_headers_remove: applied to every upstream answer of the version. */
  globalResponseHeaders?: HeaderEdits;
  /** track_endpoints (OAS trackEndpoint): analytics records of these endpoints carry the endpoint's path template. */
  trackEndpoints?: TrackRule[];
  /** do_not_track_endpoints (OAS doNotTrackEndpoint): requests to these endpoints produce no analytics record. */
  doNotTrackEndpoints?: TrackRule[];
  /** extended_paths.internal (OAS operations.<id>.internal): served only to looped requests (looping/internal-endpoints.ts). */
  internalEndpoints?: TrackRule[];
  /** extended_paths.virtual: endpoints answered by a JavaScript function (plugins/virtual-endpoint.ts); absent: none. */
  virtualEndpoints?: VirtualEndpointRule[];
}

/** An endpoint of track_endpoints / do_not_track_endpoints; `pattern.source` is the path template recorded. */
export interface TrackRule {
  pattern: PathPattern;
  method: string;
}

export interface CircuitBreakerRule {
  pattern: PathPattern;
  method: string;
  /** The path as configured, reported in the breaker's events. */
  path: string;
  /** Error ratio (0..1] over the last `samples` answers at or above which the breaker trips. */
  threshold: number;
  samples: number;
  /** How long the breaker stays open. */
  returnToServiceMs: number;
  /** After returnToServiceMs one trial request decides (true), or the breaker closes outright (false). */
  halfOpen: boolean;
}

/** How a version caches answers (definition/response-cache.ts). */
export interface CacheSpec {
  /** Cache every GET, HEAD and OPTIONS request (cache_all_safe_requests). */
  allSafeRequests: boolean;
  /** The endpoints cached, first match applies (extended_paths.cache: safe methods; advance_cache_config: one). */
  endpoints: CacheEndpointRule[];
  ttlMs: number;
  /** Statuses cached; empty: any. */
  statuses: number[];
  /** Cache only answers that carry the upstream's cache action header (enable_upstream_cache_control). */
  upstreamControl: boolean;
  /** Lower-case name of the upstream header with the TTL in seconds; undefined: the default names. */
  ttlHeader?: string;
  /** Lower-case request header names whose values join the key (cache_by_headers). */
  keyHeaders: string[];
}

export interface CacheEndpointRule {
  pattern: PathPattern;
  /** GET, HEAD or OPTIONS (a plain extended_paths.cache path is compiled into one rule for each). */
  method: string;
  /** Replaces the version's statuses when non-empty. */
  statuses: number[];
  /** Replaces the version's TTL when set. */
  ttlMs?: number;
}

export interface SizeLimitRule {
  pattern: PathPattern;
  method: string;
  bytes: number;
}

export interface JsonValidationRule {
  pattern: PathPattern;
  method: string;
  /** The schema compiled once at load (definition/json-validation.ts). */
  validate: ValidateFunction;
  /** Status of a body that does not match. */
  errorCode: number;
  /** Whose message format a failure is reported in (Tyk's Classic and OAS middleware differ). */
  format: 'classic' | 'oas';
}

/** Header edits: removals first, then the set values (lower-case names). */
export interface HeaderEdits {
  remove: string[];
  set: [string, string][];
}
