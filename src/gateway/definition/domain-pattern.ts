// Matching host names against an API's domain (the forms: api/domain-pattern.ts) for routing (proxy/router.ts)
// and SNI names (which certificate, whether to ask for a client certificate, tls/server-certificates.ts). A
// certificate's own wildcard name (`*.example.com` in its SAN) covers one label, as TLS clients check it
// (RFC 6125 §6.4.3). A domain of another form is refused when the API loads, naming the field. Pure.
import { parseDomain, type DomainPattern } from '../../domain/domain-pattern.ts';
import { DefinitionError } from './api-spec.ts';

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
