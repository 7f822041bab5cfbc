// Whether two APIs' routes can answer the same request on one gateway, for the rule that keeps organisations out
// of each other's path space on a gateway serving several (api-writes.ts). The gateway routes a request to the
// longest listen path on segment boundaries, APIs bound to a domain before domain-less ones (gateway/proxy/router.ts),
// so an API nested under another's listen path takes part of its traffic, and one bound to a host takes that host's
// share of a domain-less API's. Deliberately wider than the router where exactness would cost: wildcard domains
// overlap whenever one suffix ends the other, whatever the label counts. Pure. Listen paths come normalised
// (definitions.ts normaliseListenPath: `/a/b`, no trailing slash, `/` alone for the root).
import { parseDomain } from '../domain/domain-pattern.ts';

/** `/a/b/c` -> ['/', '/a', '/a/b', '/a/b/c']: the listen paths that serve it or a path under it. */
export function listenPathAncestors(listenPath: string): string[] {
  const segments = listenPath.split('/').filter((s) => s !== '');
  return ['/', ...segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}`)];
}

/** The prefix every listen path under this one starts with (`/a` -> `/a/`; the root -> `/`). */
export function descendantPrefix(listenPath: string): string {
  return listenPath === '/' ? '/' : `${listenPath}/`;
}

/** One listen path equals the other or lies under it on segment boundaries. */
export function listenPathsNest(a: string, b: string): boolean {
  return a === b || b.startsWith(descendantPrefix(a)) || a.startsWith(descendantPrefix(b));
}

/** Some host could be served by both domains ('' is every host). */
export function domainsOverlap(a: string, b: string): boolean {
  if (a === '' || b === '') return true;
  const left = parseDomain(a);
  const right = parseDomain(b);
  if ('problem' in left || 'problem' in right) return a.toLowerCase() === b.toLowerCase();
  if (left.kind === 'host' && right.kind === 'host') return left.host === right.host;
  if (left.kind === 'host') return underSuffix(left.host, (right as { suffix: string }).suffix);
  if (right.kind === 'host') return underSuffix(right.host, left.suffix);
  return left.suffix.endsWith(right.suffix) || right.suffix.endsWith(left.suffix);
}

const underSuffix = (host: string, suffix: string): boolean => host.length > suffix.length && host.endsWith(suffix);

/** Two routes (domain, normalised listen path) that can answer the same request. */
export function routesOverlap(a: { domain: string; listen_path: string }, b: { domain: string; listen_path: string }): boolean {
  return domainsOverlap(a.domain, b.domain) && listenPathsNest(a.listen_path, b.listen_path);
}
