// An API's `domain` as the gateway matches host names against it (routing, proxy/router.ts) and SNI names (which
// certificate, whether to ask for a client certificate, tls/server-certificates.ts). The forms, case-insensitive:
//   api.example.com          that host alone
//   *.example.com            any host under example.com, one or more labels deep (a.example.com, a.b.example.com);
//                            never example.com itself
//   {?:[^.]+}.example.com    exactly one label before example.com (a.example.com only): the anchor's host variable
//                            (gorilla/mux `{name}`, `{name:[^.]+}`, `{?:[^.]+}`), which its Ingress controller writes
//                            for a Kubernetes wildcard host, and so does ours (operator/ingress/templates.ts)
// A certificate's own wildcard name (`*.example.com` in its SAN) covers one label, as TLS clients check it
// (RFC 6125 §6.4.3). Any other pattern is refused when the API loads, naming the field. Pure.
import { DefinitionError } from './api-spec.ts';

export type DomainPattern = { kind: 'host'; host: string } | { kind: 'label' | 'subdomains'; suffix: string };

/** A whole first label that is a mux host variable matching one label: `{name}`, `{name:[^.]+}`, `{?:[^.]+}`. */
const ONE_LABEL_VARIABLE = /^\{[A-Za-z0-9_?]*(?::\[\^\.\]\+)?\}$/;

/** The domain, lower-cased, as a pattern; the problem with it when it is none of the forms above. */
export function parseDomain(domain: string): DomainPattern | { problem: string } {
  const lower = domain.toLowerCase();
  const dot = lower.startsWith('{') ? lower.indexOf('}') + 1 : lower.indexOf('.'); // a variable's pattern may hold a '.'
  const first = dot <= 0 ? lower : lower.slice(0, dot);
  const suffix = dot <= 0 ? '' : lower.slice(dot);
  const kind = first === '*' ? 'subdomains' : ONE_LABEL_VARIABLE.test(first) ? 'label' : undefined;
  if (kind) {
    if (suffix.length < 2 || !suffix.startsWith('.') || /[*{}]/.test(suffix)) return { problem: `${domain}: a wildcard is only supported as the whole first label, followed by a domain` };
    return { kind, suffix };
  }
  if (/[*{}]/.test(lower)) return { problem: `${domain}: only a whole first label may be a wildcard: *.example.com (one or more labels) or {?:[^.]+}.example.com (exactly one)` };
  return { kind: 'host', host: lower };
}

/** The API's domain for ApiSpec (lower-case), or a DefinitionError naming the field. */
export function checkedDomain(domain: string, field: string): string {
  const pattern = parseDomain(domain);
  if ('problem' in pattern) throw new DefinitionError(`${field} ${pattern.problem}`);
  return domain.toLowerCase();
}

/** A name in a certificate (CN, DNS SAN) or a certificate file's domain_name: `*.x` covers exactly one label. */
export function certificateNamePattern(name: string): DomainPattern {
  const lower = name.toLowerCase();
  return lower.startsWith('*.') && lower.length > 2 ? { kind: 'label', suffix: lower.slice(1) } : { kind: 'host', host: lower };
}

/** Whether a host name (lower-case, no port) is matched by the pattern. */
export function matchesDomain(pattern: DomainPattern, hostname: string): boolean {
  if (pattern.kind === 'host') return hostname === pattern.host;
  if (hostname.length <= pattern.suffix.length || !hostname.endsWith(pattern.suffix)) return false;
  return pattern.kind === 'subdomains' || !hostname.slice(0, -pattern.suffix.length).includes('.');
}

/**
 * Values by domain pattern. Lookups go from the most specific: the exact host, then wildcards by longest suffix,
 * a one-label wildcard before a one-or-more one on the same suffix. `set` keeps the first value of a pattern.
 */
export class DomainTable<T> {
  readonly #hosts = new Map<string, T>();
  readonly #wildcards: { pattern: DomainPattern & { kind: 'label' | 'subdomains' }; value: T }[] = [];

  get(pattern: DomainPattern): T | undefined {
    if (pattern.kind === 'host') return this.#hosts.get(pattern.host);
    return this.#wildcards.find((w) => w.pattern.kind === pattern.kind && w.pattern.suffix === pattern.suffix)?.value;
  }

  /** Adds the value unless the pattern has one already; returns the pattern's value. */
  setIfAbsent(pattern: DomainPattern, value: T): T {
    const existing = this.get(pattern);
    if (existing !== undefined) return existing;
    if (pattern.kind === 'host') {
      this.#hosts.set(pattern.host, value);
      return value;
    }
    const rank = (p: { kind: string; suffix: string }): number => p.suffix.length * 2 + (p.kind === 'label' ? 1 : 0);
    const at = this.#wildcards.findIndex((w) => rank(w.pattern) < rank(pattern));
    this.#wildcards.splice(at === -1 ? this.#wildcards.length : at, 0, { pattern, value });
    return value;
  }

  /** The first result `pick` gives for the values matching the host name, most specific first. */
  find<R>(hostname: string, pick: (value: T) => R | undefined): R | undefined {
    const exact = this.#hosts.get(hostname);
    const fromExact = exact === undefined ? undefined : pick(exact);
    if (fromExact !== undefined) return fromExact;
    for (const { pattern, value } of this.#wildcards) {
      if (!matchesDomain(pattern, hostname)) continue;
      const found = pick(value);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  get size(): number {
    return this.#hosts.size + this.#wildcards.length;
  }
}
