import { describe, expect, it } from 'vitest';
import { parseAddressRange, TrustedProxies } from './trusted-proxies.ts';

describe('trusted_proxies', () => {
  it('reads addresses and CIDR ranges of both families, and nothing else', () => {
    expect(parseAddressRange('10.0.0.1')).toEqual({ address: '10.0.0.1', prefix: 32, family: 'ipv4' });
    expect(parseAddressRange('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseAddressRange('fd00::/8')).toEqual({ address: 'fd00::', prefix: 8, family: 'ipv6' });
    for (const bad of ['', 'localhost', '10.0.0.0/33', '10.0.0.0/', '10.0.0.0/x', 'fd00::/129', '10.0.0.1/8/8', '300.1.1.1'])
      expect(parseAddressRange(bad), bad).toBeUndefined();
  });

  it('trusts exactly the listed peers; an IPv4 peer seen as ::ffff:a.b.c.d is matched as IPv4', () => {
    const trusted = new TrustedProxies(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    expect(trusted.trusts('10.200.3.4')).toBe(true);
    expect(trusted.trusts('::ffff:10.200.3.4')).toBe(true);
    expect(trusted.trusts('192.168.1.7')).toBe(true);
    expect(trusted.trusts('192.168.1.8')).toBe(false);
    expect(trusted.trusts('fd12::1')).toBe(true);
    expect(trusted.trusts('fe80::1')).toBe(false);
    expect(trusted.trusts('11.0.0.1')).toBe(false);
    expect(trusted.trusts(undefined)).toBe(false);
  });

  it('trusts no one by default', () => {
    const none = new TrustedProxies([]);
    expect(none.trusts('127.0.0.1')).toBe(false);
    expect(none.trusts('::1')).toBe(false);
  });
});
