// trusted_proxies: the peers (IP addresses or CIDR ranges, IPv4 or IPv6) allowed to forward for clients. From such
// a peer the gateway appends to the X-Forwarded-For chain and keeps X-Forwarded-Proto/-Host as sent; from any other
// peer it overwrites all three with what it saw itself (forward.ts). Parsed once at start; a lookup is one
// node:net BlockList check, and none at all when the list is empty (the default: trust no one).
// An IPv4 peer seen on a dual-stack socket as `::ffff:a.b.c.d` is matched as a.b.c.d.
import { BlockList, isIP } from 'node:net';

export interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`; undefined for anything else. */
export function parseAddressRange(text: string): AddressRange | undefined {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(max) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return { address, prefix: Number(prefixText), family: version === 4 ? 'ipv4' : 'ipv6' };
}

export class TrustedProxies {
  readonly #ranges = new BlockList();
  readonly #none: boolean;

  /** Entries must have passed parseAddressRange (the configuration schema checks them). */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const range = parseAddressRange(entry);
      if (!range) throw new TypeError(`trusted_proxies: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
      this.#ranges.addSubnet(range.address, range.prefix, range.family);
    }
    this.#none = entries.length === 0;
  }

  trusts(address: string | undefined): boolean {
    if (this.#none || !address) return false;
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return this.#ranges.check(plain, isIP(plain) === 4 ? 'ipv4' : 'ipv6');
  }
}
