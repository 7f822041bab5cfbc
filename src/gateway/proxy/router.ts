// The routing table: (host, normalised path) -> the API serving it. Longest listen path wins, on segment
// boundaries only (`/a` serves `/a` and `/a/x`, never `/ab`; an `exact` route serves `/a` alone): a lookup walks the request path's prefixes from the
// longest, one Map lookup each, so its cost grows with the path's depth, not with the number of APIs. APIs bound
// to a domain are tried before domain-less ones: exact host first, then `*.suffix` wildcards, longest first.
//
// A table is immutable once built. Reload builds a new one beside the old and swaps it in one assignment, so no
// request ever sees half of a reload.
export interface Routable {
  readonly listenPath: string;
  readonly domain?: string | undefined;
  /** Serves its listen path alone, not the paths under it. */
  readonly exact?: boolean;
}

export interface RouteConflict<T> {
  rejected: T;
  kept: T;
}

type PathMap<T> = Map<string, T>;

export class RoutingTable<T extends Routable> {
  readonly #exact = new Map<string, PathMap<T>>();
  readonly #wildcards: { suffix: string; paths: PathMap<T> }[] = [];
  readonly #anyHost: PathMap<T> = new Map();
  readonly conflicts: RouteConflict<T>[] = [];
  readonly size: number;
  readonly #all: T[] = [];

  /** Routes are added in order; a later route on the same domain and listen path is rejected as a conflict. */
  constructor(routes: Iterable<T>) {
    let size = 0;
    for (const route of routes) {
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
    this.#wildcards.sort((a, b) => b.suffix.length - a.suffix.length);
    this.size = size;
  }

  /** Every route the table serves, in load order. */
  routes(): readonly T[] {
    return this.#all;
  }

  match(host: string | undefined, path: string): T | undefined {
    const hostname = hostnameOf(host);
    if (hostname) {
      const exact = this.#exact.get(hostname);
      const found = exact && longestPrefix(exact, path);
      if (found) return found;
      for (const { suffix, paths } of this.#wildcards) {
        if (hostname.endsWith(suffix) && hostname.length > suffix.length) {
          const wildcard = longestPrefix(paths, path);
          if (wildcard) return wildcard;
        }
      }
    }
    return longestPrefix(this.#anyHost, path);
  }

  #pathsFor(domain: string | undefined): PathMap<T> {
    if (!domain) return this.#anyHost;
    if (domain.startsWith('*.')) {
      const suffix = domain.slice(1);
      let entry = this.#wildcards.find((w) => w.suffix === suffix);
      if (!entry) this.#wildcards.push((entry = { suffix, paths: new Map<string, T>() }));
      return entry.paths;
    }
    let paths = this.#exact.get(domain);
    if (!paths) this.#exact.set(domain, (paths = new Map<string, T>()));
    return paths;
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
