// OAS API definition (OpenAPI 3.0.x + x-gw-api-gateway) -> ApiSpec, and the Classic view of an OAS API that
// GET /gw/apis/{id} answers with. Authentication comes from the security schemes the extension enables and
// components.securitySchemes declares: apiKey in a header, query parameter or cookie, http bearer (the token in
// Authorization), http bearer with bearerFormat JWT (JWT, settings from the extension's scheme entry: source,
// signingMethod, ...) and http basic (an apiKey scheme's signatureValidation checks request signatures); server.authentication.hmac
// enables HMAC request signing; baseIdentityProvider names the session's mode. Operation middleware is found by operationId in `paths`; a `{name}` in a path is a wildcard.
import { oasPluginField } from '../../api/js-plugins.ts';
import {
  GW_EXTENSION,
  OasBasicScheme,
  OasJwtScheme,
  OasTokenScheme,
  operationsById,
  type UrlRewrite as OasUrlRewrite,
  type GwExtension,
  type OasDocument,
  type OasOperation,
} from '../../api/oas.ts';
import type { ClassicApiDefinition } from '../../api/classic.ts';
import type { z } from 'zod';
import {
  DefinitionError,
  type ApiSpec,
  type ChildVersioning,
  type StreamSpec,
  type AuthSpec,
  type BaseIdentity,
  type BasicAuthSpec,
  type BodyTransformRule,
  type CredentialSource,
  type EndpointEntry,
  type HeaderTransformRule,
  type HmacSpec,
  type JwtSpec,
  type RewriteSource,
  type TimeoutRule,
  type TokenSignatureSpec,
  type TrackRule,
  type UrlRewriteRule,
  type VersionSpec,
} from './api-spec.ts';
import { DEFAULT_VERSION } from './from-classic.ts';
import { compileHeaderTransform } from './header-transforms.ts';
import { compileUrlRewrite } from './url-rewrites.ts';
import { compileBodyTransform } from './body-transforms.ts';
import { compileCors } from './cors.ts';
import { oasSizeLimits } from './size-limits.ts';
import { oasCircuitBreakers } from './circuit-breakers.ts';
import { oasResponseCache } from './response-cache.ts';
import { oasJsonValidations } from './json-validation.ts';
import { loadBodyRegexps } from './load-body-regexps.ts';
import { loadJwtSource } from './load-jwt-source.ts';
import { certificateIdProblem } from '../../api/certificate-ids.ts';
import { normalizeListenPath } from './listen-path.ts';
import { checkedDomain } from './domain-pattern.ts';
import { compilePathPattern } from './path-pattern.ts';
import { parseUpstreamTarget } from './upstream-target.ts';
import { upstreamTlsMapProblem } from '../../api/upstream-tls-maps.ts';
import { unknownHmacAlgorithm, type HmacAlgorithm } from '../../api/http-signature.ts';
import { loadTokenSignature } from './load-token-signature.ts';
import { compileStreams } from './streams.ts';
import { oasIpAccess, withIpAccess } from './ip-access.ts';
import { oasChildVersioning } from './oas-versioning.ts';

const X = GW_EXTENSION;
const CORS_FIELDS = { origins: 'allowedOrigins', headers: 'allowedHeaders', exposed: 'exposedHeaders' } as const;

export function oasToSpec(doc: OasDocument, id: string): ApiSpec {
  const ext = doc[X];
  const plugins = oasPluginField(ext);
  if (plugins)
    throw new DefinitionError(
      `${X}.${plugins}: JavaScript plugins in OAS definitions are not supported by this gateway yet (Classic custom_middleware and virtual endpoints are)`,
    );
  const { timeouts, mocks, bodyTransforms, ...operationRules } = compileOperations(doc, ext);
  const version: VersionSpec = {
    name: DEFAULT_VERSION,
    whiteList: [],
    blackList: [],
    ignored: [],
    authenticatedMocks: mocks,
    timeouts,
    bodyTransforms,
    ...operationRules,
  };
  const sizeLimits = oasSizeLimits(doc, ext);
  if (sizeLimits.length > 0) version.sizeLimits = sizeLimits;
  const jsonValidations = oasJsonValidations(doc, ext);
  if (jsonValidations.length > 0) version.jsonValidations = jsonValidations;
  const circuitBreakers = oasCircuitBreakers(doc, ext);
  if (circuitBreakers.length > 0) version.circuitBreakers = circuitBreakers;
  const cache = oasResponseCache(doc, ext);
  if (cache) version.cache = cache;
  const global = ext.middleware?.global;
  return {
    id,
    name: ext.info.name,
    orgId: ext.info.orgId ?? '',
    format: 'oas',
    listenPath: normalizeListenPath(ext.server.listenPath.value, `${X}.server.listenPath.value`),
    stripListenPath: ext.server.listenPath.strip ?? false,
    ...(ext.server.listenPath.exact ? { listenPathExact: true } : {}),
    ...(ext.server.customDomain?.enabled ? { domain: checkedDomain(ext.server.customDomain.name, `${X}.server.customDomain.name`) } : {}),
    target: parseUpstreamTarget(ext.upstream.url, `${X}.upstream.url`),
    ...withIpAccess(oasIpAccess(ext.server.ipAccessControl, `${X}.server.ipAccessControl`)),
    ...(ext.info.state.internal ? { internal: true as const } : {}),
    ...oasLoadBalancing(ext.upstream),
    ...oasCertificates(ext),
    ...oasUpstreamTls(ext.upstream),
    preserveHostHeader: false,
    ...oasAuth(doc, ext),
    stripAuthData: ext.server.authentication?.stripAuthorizationData ?? false,
    versioning: { notVersioned: true, location: 'header', key: '', stripVersioningData: false, fallbackToDefault: false, defaultVersion: DEFAULT_VERSION },
    versions: new Map([[DEFAULT_VERSION, version]]),
    ...withChildVersions(oasChildVersioning(ext.info)),
    disableRateLimit: ext.skipRateLimit ?? global?.skipRateLimit ?? false,
    disableQuota: ext.skipQuota ?? global?.skipQuota ?? false,
    dontSetQuotaOnCreate: ext.skipQuotaReset ?? global?.skipQuotaReset ?? false,
    enableContextVars: global?.contextVariables?.enabled ?? false,
    analytics: { doNotTrack: global?.trafficLogs?.enabled === false, detailed: ext.server.detailedActivityLogs?.enabled ?? false, tags: [] },
    ...(global?.cors?.enabled ? { cors: compileCors(global.cors, (list) => `${X}.middleware.global.cors.${CORS_FIELDS[list]}`) } : {}),
    ...withStreams(compileStreams(doc, id)),
  };
}

function withChildVersions(childVersions: ChildVersioning | undefined): Pick<ApiSpec, 'childVersions'> {
  return childVersions ? { childVersions } : {};
}

function withStreams(streams: StreamSpec[] | undefined): Pick<ApiSpec, 'streams'> {
  return streams ? { streams } : {};
}

/** upstream.loadBalancing: each target repeated `weight` times, as Tyk Gateway turns it into the Classic target_list. */
function oasLoadBalancing(upstream: GwExtension['upstream']): Pick<ApiSpec, 'loadBalancedTargets'> {
  const balancing = upstream.loadBalancing;
  if (!balancing?.enabled) return {};
  const field = `${X}.upstream.loadBalancing`;
  if (balancing.skipUnavailableHosts)
    throw new DefinitionError(`${field}.skipUnavailableHosts: skipping hosts that fail uptime tests (uptime tests) is not supported by this gateway yet`);
  const targets = (balancing.targets ?? []).flatMap(({ url, weight }, index) =>
    Array.from({ length: weight }, () => parseUpstreamTarget(url, `${field}.targets[${index}].url`)),
  );
  if (targets.length === 0) throw new DefinitionError(`${field}.targets must name at least one upstream with a weight above 0 when load balancing is enabled`);
  return { loadBalancedTargets: targets };
}

/** upstream.mutualTLS / certificatePinning -> the Classic maps (`enabled: false` disables them, as *_disabled). */
function oasUpstreamTls(upstream: GwExtension['upstream']): Pick<ApiSpec, 'upstreamCertificates' | 'pinnedPublicKeys'> {
  const { mutualTLS, certificatePinning } = upstream;
  const certificates = Object.fromEntries((mutualTLS?.domainToCertificateMapping ?? []).map(({ domain, certificate }) => [domain, certificate]));
  const pins = Object.fromEntries((certificatePinning?.domainToPublicKeysMapping ?? []).map(({ domain, publicKeys }) => [domain, publicKeys.join(',')]));
  const checked = (map: Record<string, string>, field: string): Record<string, string> => {
    const problem = upstreamTlsMapProblem(map);
    if (problem) throw new DefinitionError(`${X}.upstream.${field} ${problem.key}: ${problem.problem}`);
    return map;
  };
  return {
    ...(mutualTLS?.enabled === false ? {} : { upstreamCertificates: checked(mutualTLS?.enabled ? certificates : {}, 'mutualTLS.domainToCertificateMapping') }),
    ...(certificatePinning?.enabled === false
      ? {}
      : { pinnedPublicKeys: checked(certificatePinning?.enabled ? pins : {}, 'certificatePinning.domainToPublicKeysMapping') }),
  };
}

type OasModes = { auth: AuthSpec; jwt?: JwtSpec; basic?: BasicAuthSpec; hmac?: HmacSpec; baseIdentity: BaseIdentity };

const BASE_IDENTITIES: Record<string, BaseIdentity> = {
  '': '',
  AuthToken: 'auth_token',
  JWTClaim: 'jwt_claim',
  BasicAuthUser: 'basic_auth_user',
  HMACKey: 'hmac_key',
  auth_token: 'auth_token',
  jwt_claim: 'jwt_claim',
  basic_auth_user: 'basic_auth_user',
  hmac_key: 'hmac_key',
};

function oasAuth(doc: OasDocument, ext: GwExtension): OasModes {
  const authentication = ext.server.authentication;
  if (!authentication?.enabled) return { auth: { kind: 'keyless' }, baseIdentity: '' };
  const field = `${X}.server.authentication.securitySchemes`;
  const schemes = authentication.securitySchemes ?? {};
  const enabled = Object.entries(schemes)
    .filter(([, s]) => s.enabled)
    .map(([name]) => name);
  if (enabled.length === 0 && !authentication.hmac?.enabled) throw new DefinitionError(`${X}.server.authentication is enabled but ${field} enables no scheme`);
  const baseIdentity = BASE_IDENTITIES[authentication.baseIdentityProvider ?? ''];
  if (baseIdentity === undefined)
    throw new DefinitionError(`${X}.server.authentication.baseIdentityProvider is not a known mode: ${authentication.baseIdentityProvider}`);
  let headerName: string | undefined;
  let paramName: string | undefined;
  let cookieName: string | undefined;
  let jwt: JwtSpec | undefined;
  let basic: BasicAuthSpec | undefined;
  let signature: TokenSignatureSpec | undefined;
  for (const name of enabled) {
    const declared = doc.components?.securitySchemes?.[name];
    if (!declared) throw new DefinitionError(`${field}.${name} is not declared in components.securitySchemes`);
    const scheme = declared.type === 'http' ? declared.scheme?.toLowerCase() : undefined;
    if (declared.type === 'apiKey' && declared.name) {
      signature ??= oasTokenSignature(settings(OasTokenScheme, schemes[name], `${field}.${name}`), `${field}.${name}`);
      if (declared.in === 'header') headerName = declared.name;
      else if (declared.in === 'query') paramName = declared.name;
      else if (declared.in === 'cookie') cookieName = declared.name;
      else throw new DefinitionError(`components.securitySchemes.${name}.in must be header, query or cookie`);
    } else if (scheme === 'bearer' && declared.bearerFormat?.toUpperCase() === 'JWT') {
      jwt = oasJwt(settings(OasJwtScheme, schemes[name], `${field}.${name}`), `${field}.${name}`);
    } else if (scheme === 'bearer') {
      headerName = 'Authorization';
    } else if (scheme === 'basic') {
      basic = oasBasic(settings(OasBasicScheme, schemes[name], `${field}.${name}`), `${field}.${name}`);
    } else {
      throw new DefinitionError(`components.securitySchemes.${name} (type ${declared.type}) is not supported by this gateway yet`);
    }
  }
  const token = headerName !== undefined || paramName !== undefined || cookieName !== undefined;
  const auth: AuthSpec = token
    ? {
        kind: 'token',
        headerName: headerName ?? 'Authorization',
        readHeader: headerName !== undefined,
        ...(paramName ? { paramName } : {}),
        ...(cookieName ? { cookieName } : {}),
        ...(signature ? { signature } : {}),
      }
    : { kind: 'none' };
  const hmac = authentication.hmac?.enabled ? oasHmac(authentication.hmac) : undefined;
  return { auth, ...(jwt ? { jwt } : {}), ...(basic ? { basic } : {}), ...(hmac ? { hmac } : {}), baseIdentity };
}

/** signatureValidation of an apiKey scheme, read with the Classic rule (load-token-signature.ts). */
function oasTokenSignature(scheme: z.infer<typeof OasTokenScheme>, field: string): TokenSignatureSpec | undefined {
  const check = scheme.signatureValidation;
  if (!check?.enabled) return undefined;
  return loadTokenSignature(
    {
      algorithm: check.algorithm,
      header: check.header,
      use_param: check.query?.enabled ?? false,
      param_name: check.query?.name,
      secret: check.secret,
      allowed_clock_skew: check.allowedClockSkew,
      error_code: check.errorCode,
      error_message: check.errorMessage,
    },
    `${field}.signatureValidation`,
    { error_code: 'errorCode' },
  );
}

/** server.authentication.hmac, read with the Classic rule (allowed algorithms, skew in milliseconds). */
function oasHmac(hmac: NonNullable<NonNullable<GwExtension['server']['authentication']>['hmac']>): HmacSpec {
  const allowed = hmac.allowedAlgorithms ?? [];
  const unknown = unknownHmacAlgorithm(allowed);
  if (unknown) throw new DefinitionError(`${X}.server.authentication.hmac.allowedAlgorithms[${unknown.index}] ${unknown.problem}: ${unknown.value}`);
  return {
    credential: AUTHORIZATION,
    allowedAlgorithms: allowed.map((name) => name.toLowerCase() as HmacAlgorithm),
    allowedClockSkewMs: hmac.allowedClockSkew ?? 0,
  };
}

function settings<T extends z.ZodType>(schema: T, value: unknown, field: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DefinitionError(`${[field, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

const AUTHORIZATION: CredentialSource = { kind: 'token', headerName: 'Authorization', readHeader: true };

function oasJwt(scheme: z.infer<typeof OasJwtScheme>, field: string): JwtSpec {
  const signingMethod = scheme.signingMethod ?? 'hmac';
  return {
    credential: AUTHORIZATION,
    signingMethod,
    source: loadJwtSource(scheme.source, signingMethod, `${field}.source`),
    skipKid: scheme.skipKid ?? false,
    ...(scheme.identityBaseField ? { identityField: scheme.identityBaseField } : {}),
    ...(scheme.policyFieldName ? { policyField: scheme.policyFieldName } : {}),
    ...(scheme.clientBaseField ? { clientField: scheme.clientBaseField } : {}),
    defaultPolicies: scheme.defaultPolicies ?? [],
    ...(scheme.scopes?.claimName ? { scopeClaim: scheme.scopes.claimName } : {}),
    scopeToPolicy: new Map((scheme.scopes?.scopeToPolicyMapping ?? []).map((m) => [m.scope, m.policyId])),
    skew: { exp: scheme.expiresAtValidationSkew ?? 0, nbf: scheme.notBeforeValidationSkew ?? 0, iat: scheme.issuedAtValidationSkew ?? 0 },
    claimChecks: {
      issuers: scheme.allowedIssuers ?? [],
      audiences: scheme.allowedAudiences ?? [],
      subjects: scheme.allowedSubjects ?? [],
      jti: scheme.jtiValidation?.enabled ?? false,
    },
  };
}

function oasBasic(scheme: z.infer<typeof OasBasicScheme>, field: string): BasicAuthSpec {
  const body = scheme.extractCredentialsFromBody;
  return {
    credential: AUTHORIZATION,
    cacheTtl: scheme.disableCaching ? 0 : scheme.cacheTTL || 60,
    ...(body?.enabled
      ? { body: loadBodyRegexps(body.userRegexp, body.passwordRegexp, `${field}.extractCredentialsFromBody`, ['userRegexp', 'passwordRegexp']) }
      : {}),
  };
}

type OperationRules = Pick<
  VersionSpec,
  'timeouts' | 'bodyTransforms' | 'responseBodyTransforms' | 'requestHeaders' | 'responseHeaders' | 'urlRewrites' | 'trackEndpoints' | 'doNotTrackEndpoints'
> & { mocks: EndpointEntry[] };

function compileOperations(doc: OasDocument, ext: GwExtension): OperationRules {
  // gw's documented location wins over Tyk\'s when an operation is configured in both.
  const configured: Record<string, z.infer<typeof OasOperation>> = { ...ext.middleware?.operations, ...ext.operations };
  const known = operationsById(doc);
  const timeouts: TimeoutRule[] = [];
  const mocks: EndpointEntry[] = [];
  const bodyTransforms: BodyTransformRule[] = [];
  const requestHeaders: HeaderTransformRule[] = [];
  const responseHeaders: HeaderTransformRule[] = [];
  const urlRewrites: UrlRewriteRule[] = [];
  const responseBodyTransforms: BodyTransformRule[] = [];
  const trackEndpoints: TrackRule[] = [];
  const doNotTrackEndpoints: TrackRule[] = [];
  for (const [operationId, operation] of Object.entries(configured)) {
    const field = `${X}.operations.${operationId}`;
    const target = known.get(operationId);
    if (!target) throw new DefinitionError(`${field}: no operation in paths has operationId ${operationId}`);
    const pattern = compilePathPattern(target.path);
    if (operation.enforceTimeout?.enabled && operation.enforceTimeout.value > 0) {
      timeouts.push({ pattern, method: target.method, timeoutMs: operation.enforceTimeout.value * 1000 });
    }
    if (operation.mockResponse?.enabled) {
      const mock = operation.mockResponse;
      const headers: [string, string][] = (mock.headers ?? []).map((h) => [h.name, h.value]);
      mocks.push({
        pattern,
        methods: new Set([target.method]),
        replies: new Map([[target.method, { code: mock.code ?? 200, body: mock.body ?? '', headers }]]),
      });
    }
    for (const [key, rules] of [
      ['transformRequestHeaders', requestHeaders],
      ['transformResponseHeaders', responseHeaders],
    ] as const) {
      const headers = operation[key];
      if (!headers?.enabled) continue;
      const at = `${field}.${key}`;
      const add = (headers.add ?? []).map((h, i) => ({ name: h.name, value: h.value, field: `${at}.add[${i}].name`, valueField: `${at}.add[${i}].value` }));
      const remove = (headers.remove ?? []).map((name, i) => ({ name, field: `${at}.remove[${i}]` }));
      rules.push(compileHeaderTransform({ path: target.path, method: target.method, remove, add }));
    }
    if (operation.trackEndpoint?.enabled) trackEndpoints.push({ pattern, method: target.method });
    if (operation.doNotTrackEndpoint?.enabled) doNotTrackEndpoints.push({ pattern, method: target.method });
    if (operation.urlRewrite?.enabled) urlRewrites.push(oasUrlRewrite(operation.urlRewrite, target, `${field}.urlRewrite`));
    for (const [key, rules, phase] of [
      ['transformRequestBody', bodyTransforms, 'request'],
      ['transformResponseBody', responseBodyTransforms, 'response'],
    ] as const) {
      const transform = operation[key];
      if (!transform?.enabled) continue;
      // `body` wins over `path`; the session's meta_data is always exposed (Tyk sets enable_session for OAS).
      const at = `${field}.${key}`;
      rules.push(
        compileBodyTransform(
          {
            field: at,
            path: target.path,
            method: target.method,
            format: transform.format,
            enableSession: true,
            ...(transform.body ? { blob: { field: `${at}.body`, base64: transform.body } } : {}),
            ...(!transform.body && transform.path ? { file: { field: `${at}.path`, path: transform.path } } : {}),
          },
          phase,
        ),
      );
    }
  }
  return {
    timeouts,
    mocks,
    bodyTransforms,
    responseBodyTransforms,
    requestHeaders,
    responseHeaders,
    urlRewrites,
    ...(trackEndpoints.length > 0 ? { trackEndpoints } : {}),
    ...(doNotTrackEndpoints.length > 0 ? { doNotTrackEndpoints } : {}),
  };
}

const OAS_RULE_SOURCES: Record<string, RewriteSource> = {
  header: 'header',
  query: 'query',
  path: 'path',
  sessionMetadata: 'meta',
  requestContext: 'context',
  requestBody: 'payload',
};

function oasUrlRewrite(rewrite: z.infer<typeof OasUrlRewrite>, target: { method: string; path: string }, at: string): UrlRewriteRule {
  return compileUrlRewrite({
    path: target.path,
    method: target.method,
    pattern: { text: rewrite.pattern, field: `${at}.pattern` },
    rewriteTo: { text: rewrite.rewriteTo, field: `${at}.rewriteTo` },
    triggers: (rewrite.triggers ?? []).map((trigger, t) => ({
      on: trigger.condition,
      conditions: trigger.rules.map((rule, r) => ({
        source: OAS_RULE_SOURCES[rule.in]!,
        name: rule.name ?? (rule.in === 'requestBody' ? 'payload' : ''),
        pattern: rule.pattern,
        reverse: rule.negate ?? false,
        field: `${at}.triggers[${t}].rules[${r}].pattern`,
      })),
      rewriteTo: { text: trigger.rewriteTo, field: `${at}.triggers[${t}].rewriteTo` },
    })),
  });
}

/** The Classic form of an OAS API (what GET /gw/apis/{id} shows for it). */
export function oasToClassicView(doc: OasDocument, id: string): ClassicApiDefinition {
  const ext = doc[X];
  const spec = oasToSpec(doc, id);
  return {
    api_id: id,
    name: ext.info.name,
    ...(ext.info.orgId ? { org_id: ext.info.orgId } : {}),
    active: ext.info.state.active,
    use_keyless: spec.auth.kind === 'keyless',
    ...(spec.jwt ? { enable_jwt: true, jwt_signing_method: spec.jwt.signingMethod } : {}),
    ...(spec.basic ? { use_basic_auth: true } : {}),
    ...(spec.auth.kind === 'token'
      ? {
          use_standard_auth: true,
          auth_configs: {
            authToken: {
              auth_header_name: spec.auth.headerName,
              use_param: !!spec.auth.paramName,
              ...(spec.auth.paramName ? { param_name: spec.auth.paramName } : {}),
              use_cookie: !!spec.auth.cookieName,
              ...(spec.auth.cookieName ? { cookie_name: spec.auth.cookieName } : {}),
            },
          },
        }
      : {}),
    proxy: {
      listen_path: ext.server.listenPath.value,
      target_url: ext.upstream.url,
      strip_listen_path: spec.stripListenPath,
      ...(spec.listenPathExact ? { listen_path_exact: true } : {}),
    },
    ...(spec.domain ? { domain: spec.domain } : {}),
    ...(spec.internal ? { internal: true } : {}),
    ...(ext.server.ipAccessControl
      ? {
          ip_access_control_disabled: !ext.server.ipAccessControl.enabled,
          allowed_ips: ext.server.ipAccessControl.allow ?? [],
          blacklisted_ips: ext.server.ipAccessControl.block ?? [],
        }
      : {}),
    strip_auth_data: spec.stripAuthData,
    disable_quota: spec.disableQuota,
    dont_set_quota_on_create: spec.dontSetQuotaOnCreate,
  };
}

/** server.customDomain.certificates (served by SNI) and server.clientCertificates (static mTLS allow-list). */
function oasCertificates(ext: OasDocument[typeof X]): Pick<ApiSpec, 'certificates' | 'clientCertificates'> {
  const served = ext.server.customDomain?.enabled ? (ext.server.customDomain.certificates ?? []) : [];
  const client = ext.server.clientCertificates;
  for (const [field, ids] of [
    ['server.customDomain.certificates', served],
    ['server.clientCertificates.allowlist', client?.allowlist ?? []],
  ] as const) {
    const problem = certificateIdProblem(ids);
    if (problem) throw new DefinitionError(`${X}.${field}[${problem[0]}] ${problem[1]}`);
  }
  return {
    ...(served.length > 0 ? { certificates: served } : {}),
    ...(client?.enabled ? { clientCertificates: client.allowlist ?? [] } : {}),
  };
}
