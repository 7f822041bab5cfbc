// The routing table: (host, normalised path) -> the API serving it. Longest listen path wins, on segment
// boundaries only (`/a` serves `/a` and `/a/x`, never `/ab`; an `exact` route serves `/a` alone): a lookup walks the request path's prefixes from the
// longest, one Map lookup each, so its cost grows with the path's depth, not with the number of APIs. APIs bound
// to a domain are tried before domain-less ones: exact host first, then wildcards, longest suffix first
// (definition/domain-pattern.ts: `*.suffix` one or more labels, `{?:[^.]+}.suffix` exactly one).
//
// An internal API (Classic `internal`, OAS info.state.internal) is loaded but never routed: no listen path or domain
// of the table leads to it and it conflicts with no one (Tyk Gateway answers a direct call 404); it is kept for
// internal looping (handler.ts loop: by api_id or name, never by path).
//
// A table is immutable once built. Reload builds a new one beside the old and swaps it in one assignment, so no
// request ever sees half of a reload.
import { parseDomain } from '../../domain/domain-pattern.ts';
import { DomainTable } from '../definition/domain-pattern.ts';

export interface Routable {
  readonly listenPath: string;
  readonly domain?: string | undefined;
  /** Serves its listen path alone, not the paths under it. */
  readonly exact?: boolean;
  /** Reachable only by internal looping, never routed for a client. */
  readonly internal?: boolean;
}

export interface RouteConflict<T> {
  rejected: T;
  kept: T;
}

type PathMap<T> = Map<string, T>;

export class RoutingTable<T extends Routable> {
  readonly #domains = new DomainTable<PathMap<T>>();
  readonly #anyHost: PathMap<T> = new Map();
  readonly conflicts: RouteConflict<T>[] = [];
  readonly size: number;
  readonly #all: T[] = [];

  /** Routes are added in order; a later route on the same domain and listen path is rejected as a conflict. */
  constructor(routes: Iterable<T>) {
    let size = 0;
    for (const route of routes) {
      if (route.internal) {
        this.#all.push(route);
        size++;
        continue;
      }
      const paths = this.#pathsFor(route.domain);
      const kept = paths.get(route.listenPath);
      if (kept) {
        this.conflicts.push({ rejected: route, kept });
        continue;
      }
      paths.set(route.listenPath, route);
      this.#all.push(route);
      size++;
    }
    this.size = size;
  }

  /** Every route the table holds (internal ones included), in load order. */
  routes(): readonly T[] {
    return this.#all;
  }

  match(host: string | undefined, path: string): T | undefined {
    const hostname = hostnameOf(host);
    if (hostname && this.#domains.size > 0) {
      const found = this.#domains.find(hostname, (paths) => longestPrefix(paths, path));
      if (found) return found;
    }
    return longestPrefix(this.#anyHost, path);
  }

  #pathsFor(domain: string | undefined): PathMap<T> {
    if (!domain) return this.#anyHost;
    const pattern = parseDomain(domain);
    // A domain the definition check refused never gets here; were it to, it would match its own spelling only.
    return this.#domains.setIfAbsent('problem' in pattern ? { kind: 'host', host: domain.toLowerCase() } : pattern, new Map<string, T>());
  }
}

function longestPrefix<T extends Routable>(paths: PathMap<T>, path: string): T | undefined {
  if (paths.size === 0) return undefined;
  const whole = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  let candidate = whole;
  for (;;) {
    const found = paths.get(candidate);
    if (found && (!found.exact || candidate === whole)) return found;
    if (candidate === '/') return undefined;
    const cut = candidate.lastIndexOf('/');
    candidate = cut <= 0 ? '/' : candidate.slice(0, cut);
  }
}

function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}
