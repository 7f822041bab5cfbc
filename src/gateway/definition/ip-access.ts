// An API's IP allow and block lists (Classic enable_ip_whitelisting + allowed_ips, enable_ip_blacklisting +
// blacklisted_ips, ip_access_control_disabled; OAS server.ipAccessControl {enabled, allow, block}), compiled once
// at load into node:net BlockLists: an entry is an IPv4 or IPv6 address or a CIDR range. An entry that is neither
// refuses the API, naming the field (Tyk Gateway ignores it: an allow list entry that never matches, a block list
// entry that never blocks; refused here so a typo never opens an API).
// Tyk Gateway's rule for when a list applies: (`!ip_access_control_disabled` or the list's enable flag) and the list is
// not empty. So a non-empty list alone turns its check on, since ip_access_control_disabled defaults to false.
import { BlockList, isIP } from 'node:net';
import type { ClassicApiDefinition } from '../../domain/classic.ts';
import { parseAddressRange } from '../proxy/trusted-proxies.ts';
import { DefinitionError, type AddressMatcher, type IpAccessSpec } from './api-spec.ts';

/** A set of addresses and ranges; `includes` is one BlockList check. */
export class AddressList implements AddressMatcher {
  readonly #ranges = new BlockList();

  /** Throws a DefinitionError naming `field[i]` for an entry that is not an address or a CIDR range. */
  constructor(entries: readonly string[], field: string) {
    entries.forEach((entry, i) => {
      const range = parseAddressRange(entry.trim());
      if (!range) throw new DefinitionError(`${field}[${i}] is not an IP address or CIDR range: ${JSON.stringify(entry)}`);
      this.#ranges.addSubnet(range.address, range.prefix, range.family);
    });
  }

  /** Whether an address (IPv4, IPv6, IPv4-mapped IPv6) is in the list; anything that is not an address is not. */
  includes(address: string): boolean {
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(plain);
    if (family === 0) return false;
    return this.#ranges.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}

type ClassicIpFields = Pick<
  ClassicApiDefinition,
  'enable_ip_whitelisting' | 'allowed_ips' | 'enable_ip_blacklisting' | 'blacklisted_ips' | 'ip_access_control_disabled'
>;

export function classicIpAccess(def: ClassicIpFields): IpAccessSpec | undefined {
  const on = (flag: boolean | undefined, list: readonly string[] | undefined): list is readonly string[] =>
    (def.ip_access_control_disabled !== true || flag === true) && (list?.length ?? 0) > 0;
  return ipAccess(
    on(def.enable_ip_whitelisting, def.allowed_ips) ? new AddressList(def.allowed_ips, 'allowed_ips') : undefined,
    on(def.enable_ip_blacklisting, def.blacklisted_ips) ? new AddressList(def.blacklisted_ips, 'blacklisted_ips') : undefined,
  );
}

export interface OasIpAccessControl {
  enabled: boolean;
  allow?: string[] | undefined;
  block?: string[] | undefined;
}

/** OAS server.ipAccessControl; `field` is its path, for messages. */
export function oasIpAccess(control: OasIpAccessControl | undefined, field: string): IpAccessSpec | undefined {
  if (!control?.enabled) return undefined;
  return ipAccess(
    control.allow?.length ? new AddressList(control.allow, `${field}.allow`) : undefined,
    control.block?.length ? new AddressList(control.block, `${field}.block`) : undefined,
  );
}

/** The ApiSpec field, spread into the spec (absent rather than undefined). */
export function withIpAccess(spec: IpAccessSpec | undefined): { ipAccess?: IpAccessSpec } {
  return spec ? { ipAccess: spec } : {};
}

function ipAccess(allow: AddressList | undefined, block: AddressList | undefined): IpAccessSpec | undefined {
  if (!allow && !block) return undefined;
  return { ...(allow ? { allow } : {}), ...(block ? { block } : {}) };
}
