// ApiSpec: one API as the proxy sees it, whatever format it was written in (Classic or OAS). Built once per API
// at load by from-classic.ts / from-oas.ts, with every path pattern compiled; the request path only reads it. The
// authentication settings are in auth-spec.ts.
import type { CompiledTemplate, InputFormat } from '../template/engine.ts';
import type { GrpcPluginsSpec, PluginsSpec, VirtualEndpointRule } from './plugin-types.ts';
import type { PathPattern } from './path-pattern.ts';
import type { LinearRegexp } from '../../domain/bounded-regexp.ts';
import type { ValidateFunction } from 'ajv';
import type { VariableText } from './variable-text.ts';
import type { GraphQLSchema } from 'graphql';
import type { InputConfig, OutputConfig } from '../../domain/streaming.ts';
import type { ProcessorConfig } from '../../domain/stream-processors.ts';
import type { AuthSpec, BaseIdentity, BasicAuthSpec, HmacSpec, JwtSpec, OAuthSpec } from './auth-spec.ts';

// How an API authenticates lives in auth-spec.ts; its types are ApiSpec's too.
export type * from './auth-spec.ts';

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

/** What the API asks of analytics (Classic do_not_track, enable_detailed_recording, tags). */
export interface AnalyticsSpec {
  /** detailed_tracing (OAS server.detailedTracing.enabled): a span per pipeline step when tracing is on. */
  detailedTracing?: boolean;
  /** do_not_track: no record for any request of the API. */
  doNotTrack: boolean;
  /** enable_detailed_recording: every record of the API carries the request and response. */
  detailed: boolean;
  /** The API's tags, added to each record's. */
  tags: string[];
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

export interface UpstreamTarget {
  /** scheme://host:port the connection pool dials. */
  origin: string;
  /** Host header sent upstream (unless the client's is preserved). */
  host: string;
  /** Path prefix of the target URL, without a trailing slash ('' for none). */
  basePath: string;
}

/** Tyk's OAS base-API versioning (info.versioning): other versions are other APIs (middleware/routing/version-routing.ts). */
export interface ChildVersioning {
  /** This API's own version name. */
  name: string;
  /** Served when a request names none; '' none. */
  defaultVersion: string;
  location: 'header' | 'url-param' | 'url';
  key: string;
  fallbackToDefault: boolean;
  stripVersioningData: boolean;
  /** location url: only a first path segment this matches (RE2, anywhere in the segment) names a version. */
  urlPattern?: { test(segment: string): boolean };
  /** Version name -> API id. */
  versions: Map<string, string>;
}

export interface VersioningSpec {
  /** The API has one version (the default); requests do not name it. */
  notVersioned: boolean;
  location: 'header' | 'url-param' | 'url';
  key: string;
  stripVersioningData: boolean;
  fallbackToDefault: boolean;
  defaultVersion?: string;
}

/** One stream of an API (x-gw-streaming.streams.<id>), as the gateway runs it (streams/stream-runtime.ts). */
export interface StreamSpec {
  /** `<apiId>/<streamId>`: names the running stream across reloads. */
  readonly key: string;
  readonly apiId: string;
  readonly streamId: string;
  readonly input: InputConfig;
  readonly output: OutputConfig;
  /** pipeline.processors, run in order on every message between input and output (streams/processors.ts). */
  readonly processors: readonly ProcessorConfig[];
  /** sha256 of the stream's configuration: a reload keeps a running stream whose hash is unchanged. */
  readonly hash: string;
}

/** A set of client addresses (definition/ip-access.ts AddressList). */
export interface AddressMatcher {
  includes(address: string): boolean;
}

/** The IP lists that apply to an API (definition/ip-access.ts). */
export interface IpAccessSpec {
  /** Only clients in it are served. */
  allow?: AddressMatcher;
  /** Clients in it are refused. */
  block?: AddressMatcher;
}

/** One uptime check: an HTTP request; healthy when answered 200. */
export interface UptimeCheckSpec {
  url: string;
  /** host:port checked (definition/uptime.ts hostKey). */
  host: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Undefined: the gateway's uptime_tests.config.time_wait. */
  timeoutMs?: number;
}

export interface UptimeSpec {
  checks: UptimeCheckSpec[];
  /** check_host_against_uptime_tests / skipUnavailableHosts. */
  skipDownHosts: boolean;
}

export interface ApiSpec {
  id: string;
  name: string;
  orgId: string;
  format: 'classic' | 'oas';
  /** Normalised: starts with '/', no trailing slash except for the root. */
  listenPath: string;
  stripListenPath: boolean;
  /** Only the listen path itself is routed here, not the paths under it (Ingress pathType Exact). */
  listenPathExact?: boolean;
  /** Lower-case host name; undefined answers on every host. A leading `*.` matches one or more labels. */
  domain?: string;
  target: UpstreamTarget;
  /** proxy.target_url / upstream.url is Tyk's `tyk://<api>[/base]`: every request loops into that API (looping/loop-step.ts). */
  loopTarget?: string;
  /**
   * Load balancing (Classic enable_load_balancing + target_list, OAS upstream.loadBalancing): requests go round robin
   * over these (a target listed N times gets N shares) instead of `target` (proxy/target-selection.ts).
   */
  loadBalancedTargets?: UpstreamTarget[];
  /** Uptime tests (definition/uptime.ts): checked by gateway/uptime/; with skipDownHosts, load balancing skips down hosts. */
  uptime?: UptimeSpec;
  /** Certificate store ids served on the TLS listeners for `domain` and the names they carry (tls/). */
  certificates?: string[];
  /** auth_configs.authToken.use_certificate: the key is derived from the client certificate (middleware/auth/certificate-key.ts). */
  tokenFromCertificate?: true;
  /** IP allow and block lists (definition/ip-access.ts, middleware/access/ip-access.ts); absent when none applies. */
  ipAccess?: IpAccessSpec;
  /** Classic `internal`, OAS info.state.internal: never routed for clients, only reachable by internal looping. */
  internal?: true;
  /** use_mutual_tls_auth: certificate store ids a client certificate must match (middleware/access/client-certificate.ts). */
  clientCertificates?: string[];
  /** upstream_certificates: host pattern -> certificate store id (proxy/upstream-tls.ts); absent when disabled. */
  upstreamCertificates?: Record<string, string>;
  /** pinned_public_keys: host pattern -> comma-separated certificate ids or PEM; absent when disabled. */
  pinnedPublicKeys?: Record<string, string>;
  preserveHostHeader: boolean;
  auth: AuthSpec;
  jwt?: JwtSpec;
  basic?: BasicAuthSpec;
  hmac?: HmacSpec;
  /** use_oauth2: the gateway issues bearer tokens for the API (../oauth/). */
  oauth?: OAuthSpec;
  /** '' : every enabled mode stores its session, the last one wins (Tyk's order: basic, HMAC, JWT, token). */
  baseIdentity: BaseIdentity;
  stripAuthData: boolean;
  versioning: VersioningSpec;
  versions: Map<string, VersionSpec>;
  /** OAS base API with info.versioning enabled: requests for other versions go to those APIs. */
  childVersions?: ChildVersioning;
  disableRateLimit: boolean;
  disableQuota: boolean;
  /** Do not reset quotas when keys with access to this API are created or updated. */
  dontSetQuotaOnCreate: boolean;
  globalRateLimit?: { rate: number; perMs: number };
  /** CORS, answered by the gateway (definition/cors.ts). */
  cors?: CorsSpec;
  /** Templates see the request's context variables as ._gw_context (Classic enable_context_vars, OAS contextVariables). */
  enableContextVars: boolean;
  /** A proxy-only GraphQL API (Classic graphql.enabled): requests are validated against its schema (middleware/validation/graphql.ts). */
  graphql?: GraphqlSpec;
  analytics: AnalyticsSpec;
  /** The streams of an OAS API with `x-gw-streaming` (definition/streams.ts): served instead of the upstream. */
  streams?: readonly StreamSpec[];
  /** JavaScript plugins (custom_middleware, driver otto) and the script of virtual endpoints (plugins/plugin-spec.ts). */
  plugins?: PluginsSpec;
  /** gRPC plugins (custom_middleware, driver grpc: plugins/grpc/grpc-spec.ts). */
  grpcPlugins?: GrpcPluginsSpec;
}

/** A proxy-only GraphQL API (definition/graphql.ts compiles it). */
export interface GraphqlSpec {
  /** Built once at load from graphql.schema. */
  schema: GraphQLSchema;
  /** graphql.introspection.disabled: introspection refused for every client of the API. */
  introspectionDisabled: boolean;
  /** graphql.playground.enabled: the playground page's path, relative to the listen path (graphql/playground.ts). */
  playgroundPath?: string;
  /** execution_mode supergraph: the gateway executes queries across these subgraphs instead of proxying. */
  supergraph?: SupergraphSpec;
  /** execution_mode executionEngine (Tyk's UDG): the gateway resolves queries from these data sources (definition/udg.ts). */
  udg?: UdgSpec;
}

/** A Universal Data Graph's engine: data sources and field mappings by `Type.field`. */
export interface UdgSpec {
  sources: Map<string, UdgDataSource>;
  fields: Map<string, UdgFieldConfig>;
  globalHeaders: Record<string, string>;
}

/** One data source; url, headers, body, query values and variables may hold `{{ .arguments.x }}` templates. */
export interface UdgDataSource {
  name: string;
  kind: 'REST' | 'GraphQL';
  url: string;
  method: string;
  headers: Record<string, string>;
  query: { name: string; value: string }[];
  body?: string;
  /** GraphQL with has_operation: this operation is posted instead of the client's selection. */
  operation?: string;
  variables?: string;
}

/** graphql.engine.field_configs[]: where the field's value is read in its parent (or its data source's answer). */
export interface UdgFieldConfig {
  disableDefaultMapping: boolean;
  path: string[];
}

/** A supergraph API's subgraphs, composed at load (graphql-schema/compose.ts). */
export interface SupergraphSpec {
  /** The composed supergraph SDL (join directives: which subgraph resolves what). */
  supergraphSdl: string;
  subgraphs: { name: string; url: string; headers: Record<string, string>; timeoutMs?: number }[];
}

export interface CorsSpec {
  /** Every origin is allowed (allowed_origins empty or containing `*`): Access-Control-Allow-Origin is `*`. */
  anyOrigin: boolean;
  /** Lower-case origins allowed as written. */
  origins: Set<string>;
  /** Origins with one `*`: allowed when they start with `prefix` and end with `suffix` (lower case). */
  originWildcards: { prefix: string; suffix: string }[];
  /** Upper case. */
  methods: Set<string>;
  /** Any request header is allowed (`*` in allowed_headers). */
  anyHeader: boolean;
  /** Lower case; always includes `origin`. */
  headers: Set<string>;
  /** Access-Control-Expose-Headers, or undefined. */
  exposedHeaders?: string;
  allowCredentials: boolean;
  /** Seconds; 0: no Access-Control-Max-Age. */
  maxAge: number;
  optionsPassthrough: boolean;
}

export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
  }
}
