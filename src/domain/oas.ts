// The OAS API definition: an OpenAPI 3.0.3 document with the gateway section `x-gw-api-gateway`. The document is
// kept exactly as posted (passthrough); only the parts the gateway acts on are typed here. Operation middleware is
// accepted where gw's design puts it (`operations.<operationId>`) and where Tyk does
// (`middleware.operations.<operationId>`), an operation's fields from both together (a field at both places must say
// the same: definition-rules/oas-definition.ts configuredOperations); `skipQuota` likewise at the top of the section or under `middleware.global`.
import { z } from 'zod';
import { OasUptimeTests } from './uptime-tests.ts';

export const GW_EXTENSION = 'x-gw-api-gateway';

export const EnforceTimeout = z.object({
  enabled: z.boolean(),
  value: z.number().min(0).describe('Seconds the upstream has to answer; on expiry the gateway answers 504.'),
});

export const TransformRequestBody = z.object({
  enabled: z.boolean(),
  format: z.enum(['json', 'xml']),
  body: z.string().optional().describe('Base64-encoded template; wins over path.'),
  path: z.string().optional().describe('Path of a template file on the gateway.'),
});

export const TransformHeaders = z.object({
  enabled: z.boolean(),
  add: z
    .array(z.object({ name: z.string(), value: z.string() }))
    .optional()
    .describe('Headers set; context variables are substituted.'),
  remove: z.array(z.string()).optional().describe('Header names removed (before the additions).'),
});

const OasRewriteRule = z.object({
  in: z.enum(['header', 'query', 'path', 'sessionMetadata', 'requestContext', 'requestBody']),
  name: z.string().optional(),
  pattern: z.string(),
  negate: z.boolean().optional(),
});

export const UrlRewrite = z.object({
  enabled: z.boolean(),
  pattern: z.string().describe('RE2 regular expression (Go regexp syntax, as Tyk) tested against the path (relative to the listen path) and query.'),
  rewriteTo: z.string().describe("The new path (and query); `$1`.. are the pattern's groups."),
  triggers: z.array(z.object({ condition: z.enum(['any', 'all']), rules: z.array(OasRewriteRule), rewriteTo: z.string() })).optional(),
});

export const MockResponse = z.object({
  enabled: z.boolean(),
  code: z.int().min(100).max(599).optional(),
  body: z.string().optional(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
});

export const RequestSizeLimit = z.object({
  enabled: z.boolean(),
  value: z.int().min(0).describe('Largest request body in bytes; larger ones get 413 `Request is too large` (0: no limit).'),
});

export const ValidateRequest = z.object({
  enabled: z.boolean(),
  errorResponseCode: z.int().min(400).max(599).optional().describe('Status answered when the body does not match (default 422).'),
});

/** Tyk's operation `cache` (an advance_cache_config entry for the operation's path and method). */
export const OasOperationCache = z.looseObject({
  enabled: z.boolean(),
  cacheResponseCodes: z.array(z.int().min(100).max(599)).optional().describe('Only answers with these statuses are cached (replaces the global list).'),
  cacheByRegex: z.string().optional().describe('Accepted for compatibility: Tyk applies it to request bodies, which are never cached here.'),
  timeout: z.int().min(0).optional().describe('Seconds an answer stays cached (0: the global timeout).'),
});

/** Tyk's operation `circuitBreaker` (Classic circuit_breakers). */
export const OasCircuitBreaker = z.looseObject({
  enabled: z.boolean(),
  threshold: z.number().min(0).max(1).optional().describe('Error ratio (above 0, at most 1) over the last sampleSize answers that trips the breaker.'),
  sampleSize: z.int().min(0).optional().describe('How many of the latest answers are judged (1 or more).'),
  coolDownPeriod: z.int().min(0).optional().describe('Seconds the breaker stays open.'),
  halfOpenStateEnabled: z.boolean().optional().describe('After coolDownPeriod one trial request decides; false (default): the breaker closes outright.'),
});

/** Tyk's middleware.global.cache (Classic cache_options). */
export const OasCache = z.looseObject({
  enabled: z.boolean(),
  timeout: z.int().min(0).optional().describe('Seconds an answer stays cached (default 60).'),
  cacheAllSafeRequests: z.boolean().optional(),
  cacheResponseCodes: z.array(z.int().min(100).max(599)).optional(),
  cacheByHeaders: z.array(z.string()).optional(),
  enableUpstreamCacheControl: z.boolean().optional(),
  controlTTLHeaderName: z.string().optional(),
});

/** Tyk's operation `allow`, `block` and `ignoreAuthentication` (Classic white_list, black_list, ignored). */
export const OasAllowance = z.looseObject({
  enabled: z.boolean(),
  ignoreCase: z.boolean().optional().describe('The path matches in any letter case (allow and ignoreAuthentication; a block always does).'),
});

export const OasOperation = z.looseObject({
  allow: OasAllowance.optional().describe('Only allowed operations are served: any other request gets 403 `Requested endpoint is forbidden`.'),
  block: OasAllowance.optional().describe('Requests to this operation get 403 `Requested endpoint is forbidden`.'),
  ignoreAuthentication: OasAllowance.optional().describe('Served without authentication.'),
  validateRequest: ValidateRequest.optional(),
  requestSizeLimit: RequestSizeLimit.optional(),
  enforceTimeout: EnforceTimeout.optional(),
  transformRequestBody: TransformRequestBody.optional(),
  mockResponse: MockResponse.optional(),
  transformResponseBody: TransformRequestBody.optional().describe("Response body transform: the upstream's answer through a Go template."),
  transformRequestHeaders: TransformHeaders.optional(),
  transformResponseHeaders: TransformHeaders.optional(),
  urlRewrite: UrlRewrite.optional(),
  trackEndpoint: z.looseObject({ enabled: z.boolean() }).optional().describe('Analytics records of this operation carry its path (Classic track_endpoints).'),
  internal: z.looseObject({ enabled: z.boolean() }).optional().describe('Reachable only through internal looping (Classic extended_paths.internal).'),
  doNotTrackEndpoint: z
    .looseObject({ enabled: z.boolean() })
    .optional()
    .describe('Requests to this operation produce no analytics record (Classic do_not_track_endpoints).'),
  cache: OasOperationCache.optional(),
  circuitBreaker: OasCircuitBreaker.optional(),
});

/** CORS (Tyk's middleware.global.cors); the same semantics as Classic `CORS`. */
export const OasCors = z.looseObject({
  enabled: z.boolean(),
  allowedOrigins: z.array(z.string()).optional(),
  allowedMethods: z.array(z.string()).optional(),
  allowedHeaders: z.array(z.string()).optional(),
  exposedHeaders: z.array(z.string()).optional(),
  allowCredentials: z.boolean().optional(),
  maxAge: z.int().min(0).optional(),
  optionsPassthrough: z.boolean().optional(),
  debug: z.boolean().optional(),
});

const Quota = { skipQuota: z.boolean().optional(), skipQuotaReset: z.boolean().optional(), skipRateLimit: z.boolean().optional() };

/**
 * Tyk's OAS versioning on a base API (info.versioning): requests naming another version (header, query parameter
 * or first path segment) are handed to that version's API, by id (gateway/middleware/version-routing.ts).
 */
export const OasVersioning = z.looseObject({
  enabled: z.boolean(),
  name: z.string().optional().describe("This (base) API's own version name."),
  default: z.string().optional().describe("Version served when a request names none (this API's name, `self`, or a listed version)."),
  location: z.enum(['header', 'url-param', 'url']).optional().describe('Where requests name the version (default header).'),
  key: z.string().optional().describe('Header or query parameter naming the version (location header or url-param).'),
  fallbackToDefault: z.boolean().optional().describe('A request naming an unknown version gets the default instead of 404.'),
  stripVersioningData: z.boolean().optional().describe('Remove the version (header, parameter or path segment) before the request goes on.'),
  urlVersioningPattern: z.string().optional().describe('location url: only a first path segment matching this RE2 pattern names a version.'),
  versions: z
    .array(z.looseObject({ name: z.string().min(1), id: z.string().min(1) }))
    .optional()
    .describe('The other versions: name and API id.'),
});

export const GwExtension = z.looseObject({
  info: z.looseObject({
    id: z.string().optional(),
    orgId: z.string().optional(),
    name: z.string().min(1),
    state: z.looseObject({ active: z.boolean(), internal: z.boolean().optional() }),
    versioning: OasVersioning.optional(),
  }),
  upstream: z.looseObject({
    url: z.string().min(1),
    uptimeTests: OasUptimeTests.optional(),
    loadBalancing: z
      .looseObject({
        enabled: z.boolean(),
        skipUnavailableHosts: z.boolean().optional().describe('Classic check_host_against_uptime_tests: skip targets whose host fails uptimeTests.'),
        targets: z.array(z.looseObject({ url: z.string().min(1), weight: z.int().min(0) })).optional(),
      })
      .optional()
      .describe('Round robin over targets instead of url; a target of weight N gets N shares, weight 0 none (Classic enable_load_balancing + target_list).'),
    mutualTLS: z
      .looseObject({ enabled: z.boolean(), domainToCertificateMapping: z.array(z.object({ domain: z.string(), certificate: z.string() })).optional() })
      .optional()
      .describe('Upstream mTLS: the certificate (store id) presented to each upstream domain (Classic upstream_certificates).'),
    certificatePinning: z
      .looseObject({ enabled: z.boolean(), domainToPublicKeysMapping: z.array(z.object({ domain: z.string(), publicKeys: z.array(z.string()) })).optional() })
      .optional()
      .describe('Public key pinning: the certificates (store ids) whose keys each upstream domain must present (Classic pinned_public_keys).'),
  }),
  server: z.looseObject({
    listenPath: z.looseObject({
      value: z.string().min(1),
      strip: z.boolean().optional(),
      exact: z
        .boolean()
        .optional()
        .describe(
          'Ours (the Classic proxy.listen_path_exact): answer on the listen path alone, not on the paths under it (Kubernetes Ingress pathType Exact). Default false.',
        ),
    }),
    customDomain: z.looseObject({ enabled: z.boolean(), name: z.string(), certificates: z.array(z.string()).optional() }).optional(),
    /** Static client mTLS (Tyk's server.clientCertificates): allowlist of certificate store ids. */
    clientCertificates: z.looseObject({ enabled: z.boolean(), allowlist: z.array(z.string()).optional() }).optional(),
    ipAccessControl: z
      .looseObject({ enabled: z.boolean(), allow: z.array(z.string()).optional(), block: z.array(z.string()).optional() })
      .optional()
      .describe('IP allow and block lists (Classic allowed_ips, blacklisted_ips): addresses and CIDR ranges, IPv4 or IPv6.'),
    detailedActivityLogs: z
      .looseObject({ enabled: z.boolean() })
      .optional()
      .describe('Analytics records carry the request and response (Classic enable_detailed_recording).'),
    detailedTracing: z.looseObject({ enabled: z.boolean() }).optional().describe('With OpenTelemetry on: a span per pipeline step (Classic detailed_tracing).'),
    authentication: z
      .looseObject({
        enabled: z.boolean(),
        stripAuthorizationData: z.boolean().optional(),
        securitySchemes: z.record(z.string(), z.looseObject({ enabled: z.boolean() })).optional(),
        baseIdentityProvider: z.string().optional(),
        hmac: z
          .looseObject({ enabled: z.boolean(), allowedAlgorithms: z.array(z.string()).optional(), allowedClockSkew: z.number().optional() })
          .optional()
          .describe('HMAC request signing (Classic enable_signature_checking, hmac_allowed_algorithms, hmac_allowed_clock_skew in ms).'),
      })
      .optional(),
  }),
  operations: z.record(z.string(), OasOperation).optional(),
  middleware: z
    .looseObject({
      global: z
        .looseObject({
          ...Quota,
          contextVariables: z
            .looseObject({ enabled: z.boolean() })
            .optional()
            .describe('Expose request context variables to body transform templates as `._gw_context`.'),
          cors: OasCors.optional(),
          trafficLogs: z.looseObject({ enabled: z.boolean() }).optional().describe('Analytics records for this API; `enabled: false` is Classic do_not_track.'),
          cache: OasCache.optional(),
        })
        .optional(),
      operations: z.record(z.string(), OasOperation).optional(),
    })
    .optional(),
  ...Quota,
});
export type GwExtension = z.infer<typeof GwExtension>;

/** The extension's settings of an apiKey scheme: the request signature check (Classic authToken.signature). */
export const OasTokenScheme = z.looseObject({
  enabled: z.boolean(),
  signatureValidation: z
    .looseObject({
      enabled: z.boolean(),
      algorithm: z.string().optional(),
      header: z.string().optional(),
      query: z.looseObject({ enabled: z.boolean(), name: z.string().optional() }).optional(),
      secret: z.string().optional(),
      allowedClockSkew: z.int().optional(),
      errorCode: z.int().optional(),
      errorMessage: z.string().optional(),
    })
    .optional(),
});

/** The extension's settings of an http/bearer/JWT scheme (Tyk: apidef/oas/security.go JWT). */
export const OasJwtScheme = z.looseObject({
  enabled: z.boolean(),
  source: z.string().optional().describe('Base64 secret or PEM key, or a (base64) JWKS URL.'),
  signingMethod: z.enum(['hmac', 'rsa', 'ecdsa']).optional(),
  identityBaseField: z.string().optional(),
  skipKid: z.boolean().optional(),
  policyFieldName: z.string().optional(),
  clientBaseField: z
    .string()
    .optional()
    .describe("Claim naming a key whose first policy is the session's base policy when the policy claim gives none (Classic jwt_client_base_field)."),
  defaultPolicies: z.array(z.string()).optional(),
  allowedIssuers: z.array(z.string()).optional().describe('The iss claim must be one of these (none: not checked).'),
  allowedAudiences: z.array(z.string()).optional().describe("One of the aud claim's values must be one of these (none: not checked)."),
  allowedSubjects: z.array(z.string()).optional().describe('The identity (identityBaseField, else sub) must be one of these (none: not checked).'),
  jtiValidation: z.looseObject({ enabled: z.boolean() }).optional().describe('enabled: a jti claim is required.'),
  issuedAtValidationSkew: z.int().min(0).optional(),
  notBeforeValidationSkew: z.int().min(0).optional(),
  expiresAtValidationSkew: z.int().min(0).optional(),
  scopes: z
    .looseObject({
      claimName: z.string().optional(),
      scopeToPolicyMapping: z.array(z.object({ scope: z.string(), policyId: z.string() })).optional(),
    })
    .optional(),
});

/** The extension's settings of an http/basic scheme (Tyk: apidef/oas/security.go Basic). */
export const OasBasicScheme = z.looseObject({
  enabled: z.boolean(),
  disableCaching: z.boolean().optional(),
  cacheTTL: z.int().min(0).optional(),
  extractCredentialsFromBody: z.looseObject({ enabled: z.boolean(), userRegexp: z.string().optional(), passwordRegexp: z.string().optional() }).optional(),
});

/** Tyk's `OAuth` scheme settings (an `oauth2` securityScheme): the gateway is the authorization server. */
export const OasOAuthScheme = z.looseObject({
  enabled: z.boolean(),
  allowedAuthorizeTypes: z.array(z.enum(['code', 'token'])).optional(),
  refreshToken: z.boolean().optional().describe('Issue refresh tokens (adds refresh_token to the grants).'),
  authLoginRedirect: z.string().optional(),
  notifications: z.looseObject({ sharedSecret: z.string().optional(), onKeyChangeUrl: z.string().optional() }).optional(),
});

export const SecurityScheme = z.looseObject({
  type: z.string(),
  flows: z.record(z.string(), z.unknown()).optional().describe('oauth2 schemes: the grants the token endpoint accepts.'),
  name: z.string().optional(),
  in: z.string().optional(),
  scheme: z.string().optional(),
  bearerFormat: z.string().optional(),
});

const OperationObject = z.looseObject({ operationId: z.string().optional() });

export const OasDocument = z.looseObject({
  openapi: z.string().regex(/^3\.0\.\d+$/, 'openapi must be 3.0.x'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ securitySchemes: z.record(z.string(), SecurityScheme).optional() }).optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  [GW_EXTENSION]: GwExtension,
});
export type OasDocument = z.infer<typeof OasDocument>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** operationId -> (method, path) of every operation in `paths`. */
export function operationsById(doc: OasDocument): Map<string, { method: string; path: string }> {
  const operations = new Map<string, { method: string; path: string }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const parsed = OperationObject.safeParse(item[method]);
      if (parsed.success && parsed.data.operationId) operations.set(parsed.data.operationId, { method: method.toUpperCase(), path });
    }
  }
  return operations;
}
