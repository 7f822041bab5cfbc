// The hosts JWKS keys may be fetched from (config jwks.allowed_hosts): an entry is a host name (`idp.example.com`,
// compared without case), `*.example.com` (any name under example.com, one or more labels, not example.com itself),
// or an IPv4 or IPv6 address. Empty allows every host (the default, as before the option existed). The port and
// scheme are not restricted. Only the host part of the URL counts: DNS for an allowed name is trusted.
import { isIP } from 'node:net';

/** Whether a configuration entry is one of the forms above. */
export function isJwksHostEntry(entry: string): boolean {
  if (isIP(entry) !== 0) return true;
  return /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/i.test(entry);
}

export class JwksHosts {
  readonly #exact = new Set<string>();
  readonly #suffixes: string[] = [];
  readonly #any: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const lower = entry.toLowerCase();
      if (lower.startsWith('*.')) this.#suffixes.push(lower.slice(1));
      else this.#exact.add(isIP(lower) === 6 ? canonicalIpv6(lower) : lower);
    }
    this.#any = entries.length === 0;
  }

  /** Why this URL may not be fetched, or undefined when it may. */
  refusal(url: string): string | undefined {
    if (this.#any) return undefined;
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return 'not a URL';
    }
    if (host.startsWith('[') && host.endsWith(']')) host = canonicalIpv6(host.slice(1, -1));
    if (this.#exact.has(host) || this.#suffixes.some((suffix) => host.endsWith(suffix))) return undefined;
    return `host ${host} is not in jwks.allowed_hosts: not fetched`;
  }
}

/** The spelling the WHATWG URL parser gives an IPv6 address (compressed, lower case). */
function canonicalIpv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}
