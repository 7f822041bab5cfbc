// Classic API definition -> ApiSpec. Also the semantic validation of a Classic definition: anything the gateway
// cannot honour is refused with a message naming the field, never silently served differently (an API asking
// for JWT is never served as keyless; a transform is never skipped: it is compiled here, body-transforms.ts).
import type { CacheOptions, ClassicApiDefinition, EndpointMeta, ExtendedPaths, VersionInfo } from '../../domain/classic.ts';
import { DefinitionError, type ApiSpec, type CorsSpec } from './api-spec.ts';
import type { BodyTransformRule, EndpointEntry, HeaderTransformRule, MockReply, TimeoutRule, TrackRule, UrlRewriteRule, VersionSpec } from './version-spec.ts';
import { compileBodyTransform } from './body-transforms.ts';
import { classicDefinitionProblems } from '../../definition-rules/classic-definition.ts';
import { gatewayMessage } from '../../definition-rules/problems.ts';
import { compileHeaderEdits } from './header-edits.ts';
import { compileCors } from './cors.ts';
import { classicSizeLimits } from './size-limits.ts';
import { classicCircuitBreakers } from './circuit-breakers.ts';
import { classicResponseCache } from './response-cache.ts';
import { classicJsonValidations } from './json-validation.ts';
import { compileHeaderTransform } from './header-transforms.ts';
import { compileUrlRewrite, type RewriteConditionSource } from './url-rewrites.ts';
import { upstreamTlsMapProblem } from '../../domain/upstream-tls-maps.ts';
import { normalizeListenPath } from './listen-path.ts';
import { checkedDomain } from './domain-pattern.ts';
import { compilePathPattern, compileResourcePattern } from './path-pattern.ts';
import { loadBalancedTargets, parseUpstreamTarget, proxyTarget } from './upstream-target.ts';
import { compileGraphql } from './graphql.ts';
import { classicIpAccess, withIpAccess } from './ip-access.ts';
import { internalLoopUrl, type InternalLoopTarget } from '../../domain/internal-loop-target.ts';
import { classicUptime } from './uptime.ts';
import { classicAuth, classicModes, classicOAuth } from './from-classic-auth.ts';
import { classicPlugins, virtualEndpoints } from '../plugins/plugin-spec.ts';
import { classicGrpcPlugins } from '../plugins/grpc/grpc-spec.ts';

export const DEFAULT_VERSION = 'Default';

export function classicToSpec(def: ClassicApiDefinition, id: string): ApiSpec {
  // The rules the admission webhook applies too (definition-rules/): the first problem refuses the definition.
  const problem = classicDefinitionProblems(def, '')[0];
  if (problem) throw new DefinitionError(gatewayMessage(problem));
  const listenPath = normalizeListenPath(def.proxy?.listen_path, 'proxy.listen_path');
  const balanced = loadBalancedTargets(def.proxy?.enable_load_balancing === true ? (def.proxy.target_list ?? []) : undefined, 'proxy.target_list');
  // With load balancing target_url may be left out (the first target stands for it: pools, logs).
  const proxied = def.proxy?.target_internal
    ? proxyTarget(internalLoopUrl(def.proxy.target_internal), 'proxy.target_internal')
    : balanced && !def.proxy?.target_url
      ? { target: balanced[0]!, loopTarget: undefined }
      : resolvedByEngine(def) && !def.proxy?.target_url
        ? { target: ENGINE_TARGET, loopTarget: undefined }
        : proxyTarget(def.proxy?.target_url, 'proxy.target_url');
  const { target, loopTarget } = proxied;
  const versionsIn = def.version_data?.versions ?? {};
  const notVersioned = def.version_data?.not_versioned ?? Object.keys(versionsIn).length <= 1;
  const versions = new Map<string, VersionSpec>();
  const virtualSources: string[] = [];
  for (const [name, info] of Object.entries(versionsIn)) {
    versions.set(name, compileVersion(name, info, def.extended_paths, `version_data.versions.${name}`, def.cache_options, virtualSources));
  }
  if (versions.size === 0)
    versions.set(
      DEFAULT_VERSION,
      compileVersion(
        DEFAULT_VERSION,
        { name: DEFAULT_VERSION, use_extended_paths: true },
        def.extended_paths,
        'extended_paths',
        def.cache_options,
        virtualSources,
      ),
    );

  // The rules made sure default_version names a version, and that a not_versioned API with several names one.
  let defaultVersion = def.version_data?.default_version || undefined;
  if (notVersioned && defaultVersion === undefined) defaultVersion = [...versions.keys()][0];

  const rate = def.global_rate_limit;
  const auth = classicAuth(def);
  const graphql = compileGraphql(def.graphql);
  const plugins = classicPlugins(def, virtualSources);
  const grpcPlugins = classicGrpcPlugins(def);
  return {
    id,
    name: def.name,
    orgId: def.org_id ?? '',
    format: 'classic',
    listenPath,
    stripListenPath: def.proxy?.strip_listen_path ?? false,
    ...(def.proxy?.listen_path_exact ? { listenPathExact: true } : {}),
    ...(def.domain ? { domain: checkedDomain(def.domain, 'domain') } : {}),
    target,
    ...(loopTarget ? { loopTarget } : {}),
    ...(balanced ? { loadBalancedTargets: balanced } : {}),
    ...classicUptime(def),
    ...(def.certificates?.length ? { certificates: def.certificates } : {}),
    ...withIpAccess(classicIpAccess(def)),
    ...(def.internal ? { internal: true as const } : {}),
    ...(def.use_mutual_tls_auth ? { clientCertificates: def.client_certificates ?? [] } : {}),
    ...(auth.kind === 'token' && (def.auth_configs?.authToken ?? def.auth)?.use_certificate ? { tokenFromCertificate: true as const } : {}),
    ...(def.upstream_certificates_disabled ? {} : { upstreamCertificates: upstreamTlsMap(def.upstream_certificates, 'upstream_certificates') }),
    ...(def.certificate_pinning_disabled ? {} : { pinnedPublicKeys: upstreamTlsMap(def.pinned_public_keys, 'pinned_public_keys') }),
    preserveHostHeader: def.proxy?.preserve_host_header ?? false,
    auth,
    ...classicModes(def),
    ...(def.use_oauth2 && !def.use_keyless ? { oauth: classicOAuth(def) } : {}),
    stripAuthData: def.strip_auth_data ?? false,
    versioning: {
      notVersioned,
      location: def.definition?.location ?? 'header',
      key: def.definition?.key ?? 'x-api-version',
      stripVersioningData: def.definition?.strip_versioning_data ?? def.definition?.strip_path ?? false,
      fallbackToDefault: def.definition?.fallback_to_default ?? false,
      ...(defaultVersion ? { defaultVersion } : {}),
    },
    versions,
    disableRateLimit: def.disable_rate_limit ?? false,
    disableQuota: def.disable_quota ?? false,
    dontSetQuotaOnCreate: def.dont_set_quota_on_create ?? false,
    enableContextVars: def.enable_context_vars ?? false,
    analytics: {
      doNotTrack: def.do_not_track ?? false,
      detailed: def.enable_detailed_recording ?? false,
      tags: def.tags ?? [],
      detailedTracing: def.detailed_tracing === true,
    },
    ...(def.CORS?.enable ? { cors: classicCors(def.CORS) } : {}),
    ...(rate && !rate.disabled && (rate.rate ?? 0) > 0 && (rate.per ?? 0) > 0 ? { globalRateLimit: { rate: rate.rate!, perMs: rate.per! * 1000 } } : {}),
    ...(graphql ? { graphql } : {}),
    ...(plugins ? { plugins } : {}),
    ...(grpcPlugins ? { grpcPlugins } : {}),
  };
}

function classicCors(cors: NonNullable<ClassicApiDefinition['CORS']>): CorsSpec {
  const names = { origins: 'allowed_origins', headers: 'allowed_headers', exposed: 'exposed_headers' } as const;
  return compileCors(
    {
      allowedOrigins: cors.allowed_origins,
      allowedMethods: cors.allowed_methods,
      allowedHeaders: cors.allowed_headers,
      exposedHeaders: cors.exposed_headers,
      allowCredentials: cors.allow_credentials,
      maxAge: cors.max_age,
      optionsPassthrough: cors.options_passthrough,
    },
    (list) => `CORS.${names[list]}`,
  );
}

function upstreamTlsMap(map: Record<string, string> | undefined, field: string): Record<string, string> {
  const problem = upstreamTlsMapProblem(map ?? {});
  if (problem) throw new DefinitionError(`${field}.${problem.key} ${problem.problem}`);
  return map ?? {};
}

function compileVersion(
  name: string,
  info: VersionInfo,
  apiPaths: ExtendedPaths | undefined,
  field: string,
  cacheOptions: CacheOptions | undefined,
  virtualSources: string[],
): VersionSpec {
  const paths = info.use_extended_paths === false ? undefined : (info.extended_paths ?? apiPaths);
  const pathsField = info.extended_paths ? `${field}.extended_paths` : 'extended_paths';
  const legacy = info.paths ?? {};
  const spec: VersionSpec = {
    name,
    whiteList: [...legacyEntries(legacy.white_list, `${field}.paths.white_list`), ...entries(paths?.white_list, `${pathsField}.white_list`)],
    blackList: [...legacyEntries(legacy.black_list, `${field}.paths.black_list`, 'block'), ...entries(paths?.black_list, `${pathsField}.black_list`, 'block')],
    ignored: [...legacyEntries(legacy.ignored, `${field}.paths.ignored`), ...entries(paths?.ignored, `${pathsField}.ignored`)],
    authenticatedMocks: [],
    timeouts: timeouts(paths?.hard_timeouts),
    bodyTransforms: bodyTransforms(paths?.transform, `${pathsField}.transform`),
    responseBodyTransforms: bodyTransforms(paths?.transform_response, `${pathsField}.transform_response`, 'response'),
    requestHeaders: headerTransforms(paths?.transform_headers, `${pathsField}.transform_headers`),
    responseHeaders: headerTransforms(paths?.transform_response_headers, `${pathsField}.transform_response_headers`),
    urlRewrites: urlRewrites(paths?.url_rewrites, `${pathsField}.url_rewrites`),
  };
  const jsonValidations = classicJsonValidations(paths?.validate_json, `${pathsField}.validate_json`);
  if (jsonValidations.length > 0) spec.jsonValidations = jsonValidations;
  const circuitBreakers = classicCircuitBreakers(paths?.circuit_breakers, `${pathsField}.circuit_breakers`);
  if (circuitBreakers.length > 0) spec.circuitBreakers = circuitBreakers;
  const cache = classicResponseCache(cacheOptions, paths);
  if (cache) spec.cache = cache;
  const sizeLimits = classicSizeLimits(paths?.size_limits);
  if (sizeLimits.length > 0) spec.sizeLimits = sizeLimits;
  if ((info.global_size_limit ?? 0) > 0) spec.globalSizeLimit = info.global_size_limit!;
  const requestHeaders = compileHeaderEdits(info.global_headers, info.global_headers_remove, {
    set: `${field}.global_headers`,
    remove: `${field}.global_headers_remove`,
  });
  if (requestHeaders) spec.globalRequestHeaders = requestHeaders;
  const responseHeaders = compileHeaderEdits(info.global_response_headers, info.global_response_headers_remove, {
    set: `${field}.global_response_headers`,
    remove: `${field}.global_response_headers_remove`,
  });
  if (responseHeaders) spec.globalResponseHeaders = responseHeaders;
  const tracked = trackRules(paths?.track_endpoints);
  if (tracked.length > 0) spec.trackEndpoints = tracked;
  const untracked = trackRules(paths?.do_not_track_endpoints);
  if (untracked.length > 0) spec.doNotTrackEndpoints = untracked;
  const internal = trackRules(paths?.internal);
  if (internal.length > 0) spec.internalEndpoints = internal;
  if (info.expires) spec.expiresAt = parseExpiry(info.expires, `${field}.expires`);
  const virtual = virtualEndpoints(paths?.virtual, `${pathsField}.virtual`, virtualSources);
  if (virtual.length > 0) spec.virtualEndpoints = virtual;
  if (info.override_target) spec.overrideTarget = parseUpstreamTarget(info.override_target, `${field}.override_target`);
  return spec;
}

/** `block` entries match every spelling and sub-resource of their path; `allow` entries match it exactly (path-pattern.ts). */
function entries(list: EndpointMeta[] | undefined, field: string, reading: 'allow' | 'block' = 'allow'): EndpointEntry[] {
  return (list ?? [])
    .filter((entry) => !entry.disabled)
    .map((entry, index) => {
      const methods = new Set<string>();
      if (entry.method) methods.add(entry.method.toUpperCase());
      const replies = new Map<string, MockReply>();
      for (const [method, action] of Object.entries(entry.method_actions ?? {})) {
        methods.add(method);
        if (action.action === 'reply') {
          replies.set(method, { code: action.code ?? 200, body: action.data ?? '', headers: Object.entries(action.headers ?? {}) });
        }
      }
      if (!entry.path) throw new DefinitionError(`${field}[${index}].path is required`);
      // Upstreams answer HEAD as a GET without the body: blocking GET must block HEAD.
      if (reading === 'block' && methods.has('GET')) methods.add('HEAD');
      const pattern = reading === 'block' ? compileResourcePattern(entry.path) : compilePathPattern(entry.path, entry.ignore_case ?? false);
      return { pattern, methods, replies };
    });
}

/** The legacy `paths` lists: plain paths, every method, read like their extended_paths counterparts. */
function legacyEntries(list: string[] | undefined, field: string, reading: 'allow' | 'block' = 'allow'): EndpointEntry[] {
  return entries(
    list?.map((path) => ({ path })),
    field,
    reading,
  );
}

function bodyTransforms(list: ExtendedPaths['transform'], field: string, phase: 'request' | 'response' = 'request'): BodyTransformRule[] {
  return (list ?? []).flatMap((entry, index) => {
    if (entry.disabled) return [];
    const data = entry.template_data;
    const at = `${field}[${index}]`;
    const sourceField = `${at}.template_data.template_source`;
    return [
      compileBodyTransform(
        {
          field: at,
          path: entry.path,
          method: entry.method,
          format: data.input_type,
          enableSession: data.enable_session ?? false,
          ...(data.template_mode === 'blob'
            ? { blob: { field: sourceField, base64: data.template_source } }
            : { file: { field: sourceField, path: data.template_source } }),
        },
        phase,
      ),
    ];
  });
}

function headerTransforms(list: ExtendedPaths['transform_headers'], field: string): HeaderTransformRule[] {
  return (list ?? []).flatMap((entry, index) =>
    entry.disabled
      ? []
      : [
          compileHeaderTransform({
            path: entry.path,
            method: entry.method,
            remove: (entry.delete_headers ?? []).map((name, i) => ({ name, field: `${field}[${index}].delete_headers[${i}]` })),
            add: Object.entries(entry.add_headers ?? {}).map(([name, value]) => ({
              name,
              value,
              field: `${field}[${index}].add_headers.${name}`,
              valueField: `${field}[${index}].add_headers.${name}`,
            })),
          }),
        ],
  );
}

const TRIGGER_OPTIONS = [
  ['header_matches', 'header'],
  ['query_val_matches', 'query'],
  ['path_part_matches', 'path'],
  ['session_meta_matches', 'meta'],
  ['request_context_matches', 'context'],
] as const;

function urlRewrites(list: ExtendedPaths['url_rewrites'], field: string): UrlRewriteRule[] {
  return (list ?? []).flatMap((entry, index) => {
    if (entry.disabled) return [];
    const at = `${field}[${index}]`;
    const triggers = (entry.triggers ?? []).map((trigger, t) => {
      const options = `${at}.triggers[${t}].options`;
      const conditions: RewriteConditionSource[] = TRIGGER_OPTIONS.flatMap(([option, source]) =>
        Object.entries(trigger.options[option] ?? {}).map(([name, match]) => ({
          source,
          name,
          pattern: match.match_rx,
          reverse: match.reverse ?? false,
          field: `${options}.${option}.${name}.match_rx`,
        })),
      );
      const payload = trigger.options.payload_matches;
      if (payload)
        conditions.push({
          source: 'payload',
          name: 'payload',
          pattern: payload.match_rx,
          reverse: payload.reverse ?? false,
          field: `${options}.payload_matches.match_rx`,
        });
      return { on: trigger.on, conditions, rewriteTo: rewriteTarget(trigger, `${at}.triggers[${t}]`) };
    });
    return [
      compileUrlRewrite({
        path: entry.path,
        method: entry.method,
        pattern: { text: entry.match_pattern, field: `${at}.match_pattern` },
        rewriteTo: rewriteTarget(entry, at),
        triggers,
      }),
    ];
  });
}

/** rewrite_to, or Tyk Operator's rewrite_to_internal (which wins) as its tyk:// URL. */
function rewriteTarget(
  entry: { rewrite_to?: string | undefined; rewrite_to_internal?: InternalLoopTarget | undefined },
  at: string,
): { text: string; field: string } {
  if (entry.rewrite_to_internal) return { text: internalLoopUrl(entry.rewrite_to_internal), field: `${at}.rewrite_to_internal` };
  if (entry.rewrite_to === undefined) throw new DefinitionError(`${at}.rewrite_to is required (or rewrite_to_internal)`);
  return { text: entry.rewrite_to, field: `${at}.rewrite_to` };
}

function trackRules(list: ExtendedPaths['track_endpoints']): TrackRule[] {
  return (list ?? []).filter((entry) => !entry.disabled).map((entry) => ({ pattern: compilePathPattern(entry.path), method: entry.method.toUpperCase() }));
}

function timeouts(list: ExtendedPaths['hard_timeouts']): TimeoutRule[] {
  return (list ?? [])
    .filter((entry) => !entry.disabled && entry.timeout > 0)
    .map((entry) => ({ pattern: compilePathPattern(entry.path), method: entry.method.toUpperCase(), timeoutMs: entry.timeout * 1000 }));
}

/** `2006-01-02 15:04` (UTC), Tyk's format. */
function parseExpiry(value: string, field: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(value);
  if (!match) throw new DefinitionError(`${field} must look like 2006-01-02 15:04: ${value}`);
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi);
}

/** A UDG API (graphql.execution_mode executionEngine) is answered from its data sources: target_url may be empty, as in Tyk. */
function resolvedByEngine(def: ClassicApiDefinition): boolean {
  return def.graphql?.enabled === true && def.graphql.execution_mode === 'executionEngine';
}

/** Names the upstream of a UDG API without target_url in logs; never dispatched to (the graphql step answers). */
const ENGINE_TARGET = { origin: 'http://udg.invalid:80', host: 'udg.invalid', basePath: '' };
