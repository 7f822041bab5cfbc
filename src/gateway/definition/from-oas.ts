// OAS API definition (OpenAPI 3.0.x + x-gw-api-gateway) -> ApiSpec, and the Classic view of an OAS API that
// GET /gw/apis/{id} answers with. Authentication comes from the security schemes (from-oas-auth.ts). Operation
// middleware is found by operationId in `paths`; a `{name}` in a path is a wildcard. Plugins: oas-plugins.ts.
import { configuredOperations, oasDefinitionProblems } from '../../definition-rules/oas-definition.ts';
import { gatewayMessage } from '../../definition-rules/problems.ts';
import { GW_EXTENSION, operationsById, type UrlRewrite as OasUrlRewrite, type GwExtension, type OasDocument, type OasOperation } from '../../domain/oas.ts';
import type { ClassicApiDefinition } from '../../domain/classic.ts';
import type { z } from 'zod';
import { DefinitionError, type ApiSpec, type ChildVersioning, type StreamSpec } from './api-spec.ts';
import type {
  BodyTransformRule,
  EndpointEntry,
  HeaderTransformRule,
  RewriteSource,
  TimeoutRule,
  TrackRule,
  UrlRewriteRule,
  VersionSpec,
} from './version-spec.ts';
import { DEFAULT_VERSION } from './from-classic.ts';
import { compileHeaderTransform } from './header-transforms.ts';
import { compileUrlRewrite } from './url-rewrites.ts';
import { compileBodyTransform } from './body-transforms.ts';
import { compileCors } from './cors.ts';
import { oasSizeLimits } from './size-limits.ts';
import { oasCircuitBreakers } from './circuit-breakers.ts';
import { oasResponseCache } from './response-cache.ts';
import { oasJsonValidations } from './json-validation.ts';
import { oasAllowances } from './oas-allowances.ts';
import { normalizeListenPath } from './listen-path.ts';
import { checkedDomain } from './domain-pattern.ts';
import { compilePathPattern } from './path-pattern.ts';
import { parseUpstreamTarget, proxyTarget } from './upstream-target.ts';
import { upstreamTlsMapProblem } from '../../domain/upstream-tls-maps.ts';
import { compileStreams } from './streams.ts';
import { oasIpAccess, withIpAccess } from './ip-access.ts';
import { oasChildVersioning } from './oas-versioning.ts';
import { oasUptime } from './uptime.ts';
import { oasAuth } from './from-oas-auth.ts';
import { oasPlugins } from './oas-plugins.ts';

const X = GW_EXTENSION;
const CORS_FIELDS = { origins: 'allowedOrigins', headers: 'allowedHeaders', exposed: 'exposedHeaders' } as const;

export function oasToSpec(doc: OasDocument, id: string): ApiSpec {
  const ext = doc[X];
  // The rules the dashboard's OAS writes run too (definition-rules/oas-definition.ts): the compile below relies on them.
  const problem = oasDefinitionProblems(doc)[0];
  if (problem) throw new DefinitionError(gatewayMessage(problem));
  const { timeouts, mocks, bodyTransforms, ...operationRules } = compileOperations(doc, ext);
  const { virtualEndpoints, ...plugins } = oasPlugins(doc, ext);
  const version: VersionSpec = {
    name: DEFAULT_VERSION,
    ...oasAllowances(doc, ext),
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
  if (virtualEndpoints.length > 0) version.virtualEndpoints = virtualEndpoints;
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
    ...proxyTarget(ext.upstream.url, `${X}.upstream.url`),
    ...oasUptime(ext.upstream, `${X}.upstream.uptimeTests.tests`),
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
    analytics: {
      doNotTrack: global?.trafficLogs?.enabled === false,
      detailed: ext.server.detailedActivityLogs?.enabled ?? false,
      tags: [],
      detailedTracing: ext.server.detailedTracing?.enabled === true,
    },
    ...(global?.cors?.enabled ? { cors: compileCors(global.cors, (list) => `${X}.middleware.global.cors.${CORS_FIELDS[list]}`) } : {}),
    ...withStreams(compileStreams(doc, id)),
    ...plugins,
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
  const targets = (balancing.targets ?? []).flatMap(({ url, weight }, index) =>
    Array.from({ length: weight }, () => parseUpstreamTarget(url, `${field}.targets[${index}].url`)),
  );
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

type OperationRules = Pick<
  VersionSpec,
  | 'timeouts'
  | 'bodyTransforms'
  | 'responseBodyTransforms'
  | 'requestHeaders'
  | 'responseHeaders'
  | 'urlRewrites'
  | 'trackEndpoints'
  | 'doNotTrackEndpoints'
  | 'internalEndpoints'
> & { mocks: EndpointEntry[] };

function compileOperations(doc: OasDocument, ext: GwExtension): OperationRules {
  // An operation's fields from gw's documented location and Tyk's together (a field at both must say the same).
  const configured: Record<string, z.infer<typeof OasOperation>> = configuredOperations(ext);
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
  const internalEndpoints: TrackRule[] = [];
  for (const [operationId, operation] of Object.entries(configured)) {
    const field = `${X}.operations.${operationId}`;
    const target = known.get(operationId);
    if (!target) continue; // refused by oasDefinitionProblems
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
    if (operation.internal?.enabled) internalEndpoints.push({ pattern, method: target.method });
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
    ...(internalEndpoints.length > 0 ? { internalEndpoints } : {}),
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

/** server.customDomain.certificates (served by SNI) and server.clientCertificates (static mTLS allow-list); ids checked by oasDefinitionProblems. */
function oasCertificates(ext: OasDocument[typeof X]): Pick<ApiSpec, 'certificates' | 'clientCertificates'> {
  const served = ext.server.customDomain?.enabled ? (ext.server.customDomain.certificates ?? []) : [];
  const client = ext.server.clientCertificates;
  return {
    ...(served.length > 0 ? { certificates: served } : {}),
    ...(client?.enabled ? { clientCertificates: client.allowlist ?? [] } : {}),
  };
}
