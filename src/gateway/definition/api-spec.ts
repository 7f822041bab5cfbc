// ApiSpec: one API as the proxy sees it, whatever format it was written in (Classic or OAS). Built once per API
// at load by from-classic.ts / from-oas.ts, with every path pattern compiled; the request path only reads it.
import type { CompiledTemplate, InputFormat } from '../template/engine.ts';
import type { JwtKeySource } from '../../api/jwt-source.ts';
import type { PathPattern } from './path-pattern.ts';
import type { VariableText } from './variable-text.ts';

/** Where a credential is read from (the anchor's precedence: cookie, then query parameter, then header). */
export type AuthSpec =
  | { kind: 'keyless' }
  /** No authentication token: the API authenticates only with its other modes (`jwt`, `basic`). */
  | { kind: 'none' }
  | { kind: 'token'; headerName: string; readHeader: boolean; paramName?: string; cookieName?: string };

/** Where a mode's credential is read from (auth_configs.<mode>), with the token's precedence rules. */
export type CredentialSource = Extract<AuthSpec, { kind: 'token' }>;

/** Where JWT verification keys come from (jwt_source, classified once at load by api/jwt-source.ts). */
export type { JwtKeySource };

export interface JwtSpec {
  credential: CredentialSource;
  signingMethod: 'hmac' | 'rsa' | 'ecdsa';
  source: JwtKeySource;
  skipKid: boolean;
  /** Claim naming the identity; `sub` when it is absent. */
  identityField?: string;
  policyField?: string;
  defaultPolicies: string[];
  scopeClaim?: string;
  scopeToPolicy: Map<string, string>;
  /** Seconds. */
  skew: { exp: number; nbf: number; iat: number };
}

export interface BasicAuthSpec {
  credential: CredentialSource;
  /** Seconds a verified username/password stays verified; 0 disables the cache. */
  cacheTtl: number;
  /** Credentials from the body (extract_from_body): the first group of each regexp; tried when the header fails. */
  body?: { user: RegExp; password: RegExp };
}

/** base_identity_provided_by: the mode whose session the request carries when several authenticate it. */
export type BaseIdentity = '' | 'auth_token' | 'jwt_claim' | 'basic_auth_user';

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
  regexp: RegExp;
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
  match: RegExp;
  rewriteTo: VariableText;
  triggers: RewriteTrigger[];
  /** A trigger reads the body (payload_matches / requestBody). */
  readsBody: boolean;
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
}

export interface UpstreamTarget {
  /** scheme://host:port the connection pool dials. */
  origin: string;
  /** Host header sent upstream (unless the client's is preserved). */
  host: string;
  /** Path prefix of the target URL, without a trailing slash ('' for none). */
  basePath: string;
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
  preserveHostHeader: boolean;
  auth: AuthSpec;
  jwt?: JwtSpec;
  basic?: BasicAuthSpec;
  /** '' : every enabled mode stores its session, the last one wins (the anchor's order: basic, JWT, token). */
  baseIdentity: BaseIdentity;
  stripAuthData: boolean;
  versioning: VersioningSpec;
  versions: Map<string, VersionSpec>;
  disableRateLimit: boolean;
  disableQuota: boolean;
  /** Do not reset quotas when keys with access to this API are created or updated. */
  dontSetQuotaOnCreate: boolean;
  globalRateLimit?: { rate: number; perMs: number };
  /** Templates see the request's context variables as ._gw_context (Classic enable_context_vars, OAS contextVariables). */
  enableContextVars: boolean;
}

export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
  }
}
