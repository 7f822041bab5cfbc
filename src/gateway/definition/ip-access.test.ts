// The IP allow and block lists as compiled from Classic and OAS definitions: CIDR and single addresses, IPv4 and
// IPv6 (IPv4-mapped too), entries that are not addresses refused naming the field, and Tyk Gateway's rule for when a
// list applies.
import { describe, expect, it } from 'vitest';
import { AddressList, classicIpAccess, oasIpAccess } from './ip-access.ts';

describe('AddressList', () => {
  const list = new AddressList(['10.0.0.0/8', '192.168.1.7', '2001:db8::/32', '::1'], 'allowed_ips');

  it('matches CIDR ranges and single addresses, IPv4 and IPv6', () => {
    expect(['10.200.3.4', '192.168.1.7', '2001:db8:1::5', '::1'].map((a) => list.includes(a))).toEqual([true, true, true, true]);
    expect(['11.0.0.1', '192.168.1.8', '2001:db9::1', '::2'].map((a) => list.includes(a))).toEqual([false, false, false, false]);
  });

  it('matches an IPv4 peer seen on a dual-stack socket as ::ffff:a.b.c.d', () => {
    expect(list.includes('::ffff:10.1.1.1')).toBe(true);
    expect(list.includes('::ffff:11.1.1.1')).toBe(false);
  });

  it('never matches what is not an address', () => {
    expect(['', 'bob', '10.0.0.0/8', 'unknown'].map((a) => list.includes(a))).toEqual([false, false, false, false]);
  });

  it('refuses an entry that is not an address or a CIDR range, naming the field and index', () => {
    expect(() => new AddressList(['10.0.0.1', 'bob'], 'blacklisted_ips')).toThrow('blacklisted_ips[1] is not an IP address or CIDR range: "bob"');
    expect(() => new AddressList(['10.0.0.0/33'], 'allowed_ips')).toThrow('allowed_ips[0]');
  });
});

describe('classicIpAccess (when a list applies)', () => {
  const applies = (def: Parameters<typeof classicIpAccess>[0]) => {
    const spec = classicIpAccess(def);
    return { allow: spec?.allow !== undefined, block: spec?.block !== undefined };
  };

  it('a non-empty list alone turns its check on, as in Tyk Gateway (ip_access_control_disabled defaults to false)', () => {
    expect(applies({ allowed_ips: ['10.0.0.1'], blacklisted_ips: ['10.0.0.2'] })).toEqual({ allow: true, block: true });
  });

  it('ip_access_control_disabled turns lists off unless their enable flag is set', () => {
    expect(applies({ ip_access_control_disabled: true, allowed_ips: ['10.0.0.1'], blacklisted_ips: ['10.0.0.2'] })).toEqual({ allow: false, block: false });
    expect(
      applies({
        ip_access_control_disabled: true,
        enable_ip_whitelisting: true,
        allowed_ips: ['10.0.0.1'],
        enable_ip_blacklisting: true,
        blacklisted_ips: ['10.0.0.2'],
      }),
    ).toEqual({ allow: true, block: true });
  });

  it('an empty list checks nothing, enabled or not', () => {
    expect(classicIpAccess({ enable_ip_whitelisting: true, allowed_ips: [], enable_ip_blacklisting: true })).toBeUndefined();
  });
});

describe('oasIpAccess', () => {
  it('applies allow and block when enabled, nothing when disabled, and names the OAS field of a bad entry', () => {
    expect(oasIpAccess({ enabled: true, allow: ['10.0.0.1'] }, 'x')?.allow?.includes('10.0.0.1')).toBe(true);
    expect(oasIpAccess({ enabled: false, allow: ['10.0.0.1'], block: ['10.0.0.2'] }, 'x')).toBeUndefined();
    expect(() => oasIpAccess({ enabled: true, block: ['nope'] }, 'x-gw-api-gateway.server.ipAccessControl')).toThrow(
      'x-gw-api-gateway.server.ipAccessControl.block[0]',
    );
  });
});
