// Compiles response caching, once at load: Classic cache_options {enable_cache, cache_timeout,
// cache_all_safe_requests, cache_response_codes, enable_upstream_cache_control, cache_control_ttl_header,
// cache_by_headers} with a version's extended_paths.cache (plain paths: GET, HEAD and OPTIONS) and
// advance_cache_config [{path, method, cache_response_codes, timeout}] into a CacheSpec; OAS middleware.global.cache
// and operations.<id>.cache (Tyk's names) through the same Classic view. Nothing is cached unless
// enable_cache is set and some endpoint is named (or cache_all_safe_requests): Tyk's rule. The cache itself
// (keys, entries, the store) is middleware/caching/response-cache.ts.
import type { CacheOptions, ExtendedPaths } from '../../domain/classic.ts';
import { GW_EXTENSION, operationsById, type GwExtension, type OasDocument } from '../../domain/oas.ts';
import { configuredOperations } from '../../definition-rules/oas-definition.ts';
import { DefinitionError } from './api-spec.ts';
import type { CacheEndpointRule, CacheSpec } from './version-spec.ts';
import { compilePathPattern } from './path-pattern.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Tyk's default cache_timeout, in seconds. */
export const DEFAULT_CACHE_TIMEOUT_SECONDS = 60;

export function classicResponseCache(options: CacheOptions | undefined, paths: ExtendedPaths | undefined): CacheSpec | undefined {
  if (options?.enable_cache !== true) return undefined;
  const endpoints: CacheEndpointRule[] = [
    // A plain cached path is each safe method's: one rule per method, so the lookup is the shared endpointRule.
    ...(paths?.cache ?? []).flatMap((path) => {
      const pattern = compilePathPattern(path);
      return [...SAFE_METHODS].map((method) => ({ pattern, method, statuses: [] }));
    }),
    ...(paths?.advance_cache_config ?? [])
      .filter((entry) => !entry.disabled)
      .map((entry) => ({
        pattern: compilePathPattern(entry.path),
        method: entry.method,
        statuses: entry.cache_response_codes ?? [],
        ...(entry.timeout ? { ttlMs: entry.timeout * 1000 } : {}),
      })),
  ];
  const allSafeRequests = options.cache_all_safe_requests === true;
  if (!allSafeRequests && endpoints.length === 0) return undefined;
  return {
    allSafeRequests,
    endpoints,
    ttlMs: (options.cache_timeout || DEFAULT_CACHE_TIMEOUT_SECONDS) * 1000,
    statuses: options.cache_response_codes ?? [],
    upstreamControl: options.enable_upstream_cache_control === true,
    ...(options.cache_control_ttl_header ? { ttlHeader: options.cache_control_ttl_header.toLowerCase() } : {}),
    keyHeaders: (options.cache_by_headers ?? []).map((name) => name.toLowerCase()),
  };
}

/** Operations are found by operationId in `paths` (an unknown one is refused by from-oas.ts's compileOperations). */
export function oasResponseCache(doc: OasDocument, ext: GwExtension): CacheSpec | undefined {
  const global = ext.middleware?.global?.cache;
  if (!global?.enabled) return undefined;
  const known = operationsById(doc);
  const advance: NonNullable<ExtendedPaths['advance_cache_config']> = [];
  for (const [operationId, operation] of Object.entries(configuredOperations(ext))) {
    const cache = operation.cache;
    const target = known.get(operationId);
    if (!cache?.enabled || !target) continue;
    if (!SAFE_METHODS.has(target.method)) {
      throw new DefinitionError(
        `${GW_EXTENSION}.middleware.operations.${operationId}.cache: only GET, HEAD and OPTIONS operations are cached (this one is ${target.method})`,
      );
    }
    advance.push({
      path: target.path,
      method: target.method as 'GET' | 'HEAD' | 'OPTIONS',
      ...(cache.cacheResponseCodes ? { cache_response_codes: cache.cacheResponseCodes } : {}),
      ...(cache.timeout ? { timeout: cache.timeout } : {}),
    });
  }
  const options: CacheOptions = {
    enable_cache: true,
    ...(global.timeout !== undefined ? { cache_timeout: global.timeout } : {}),
    ...(global.cacheAllSafeRequests !== undefined ? { cache_all_safe_requests: global.cacheAllSafeRequests } : {}),
    ...(global.cacheResponseCodes ? { cache_response_codes: global.cacheResponseCodes } : {}),
    ...(global.cacheByHeaders ? { cache_by_headers: global.cacheByHeaders } : {}),
    ...(global.enableUpstreamCacheControl !== undefined ? { enable_upstream_cache_control: global.enableUpstreamCacheControl } : {}),
    ...(global.controlTTLHeaderName ? { cache_control_ttl_header: global.controlTTLHeaderName } : {}),
  };
  return classicResponseCache(options, { advance_cache_config: advance });
}
