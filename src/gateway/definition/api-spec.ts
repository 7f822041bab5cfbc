// ApiSpec: one API as the proxy sees it, whatever format it was written in (Classic or OAS). Built once per API
// at load by from-classic.ts / from-oas.ts, with every path pattern compiled; the request path only reads it. The
// authentication settings are in auth-spec.ts, a version's rules in version-spec.ts, GraphQL's in graphql-spec.ts,
// the plugins' in plugin-types.ts.
import type { GrpcPluginsSpec, PluginsSpec } from './plugin-types.ts';
import type { UpstreamTarget, VersionSpec } from './version-spec.ts';
import type { GraphqlSpec } from './graphql-spec.ts';
import type { InputConfig, OutputConfig } from '../../domain/streaming.ts';
import type { ProcessorConfig } from '../../domain/stream-processors.ts';
import type { AuthSpec, BaseIdentity, BasicAuthSpec, HmacSpec, JwtSpec, OAuthSpec } from './auth-spec.ts';

// How an API authenticates lives in auth-spec.ts; its types are ApiSpec's too.
export type * from './auth-spec.ts';

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
