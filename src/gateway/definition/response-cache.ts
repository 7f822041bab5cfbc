// Compiles response caching, once at load: Classic cache_options {enable_cache, cache_timeout,
// cache_all_safe_requests, cache_response_codes, enable_upstream_cache_control, cache_control_ttl_header,
// cache_by_headers} with a version's extended_paths.cache (plain paths: GET, HEAD and OPTIONS) and
// advance_cache_config [{path, method, cache_response_codes, timeout}] into a CacheSpec. Nothing is cached unless
// enable_cache is set and some endpoint is named (or cache_all_safe_requests): the anchor's rule. The cache itself
// (keys, entries, the store) is middleware/response-cache.ts.
import type { CacheOptions, ExtendedPaths } from '../../api/classic.ts';
import type { CacheEndpointRule, CacheSpec } from './api-spec.ts';
import { compilePathPattern } from './path-pattern.ts';

/** The anchor's default cache_timeout, in seconds. */
export const DEFAULT_CACHE_TIMEOUT_SECONDS = 60;

export function classicResponseCache(options: CacheOptions | undefined, paths: ExtendedPaths | undefined): CacheSpec | undefined {
  if (options?.enable_cache !== true) return undefined;
  const endpoints: CacheEndpointRule[] = [
    ...(paths?.cache ?? []).map((path) => ({ pattern: compilePathPattern(path), statuses: [] })),
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
