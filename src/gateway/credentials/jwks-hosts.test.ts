// jwks.allowed_hosts entries and the URLs they let through: exact names without case, *.domain below the domain
// only, IPv4 and IPv6 addresses in any spelling, everything when the list is empty.
import { describe, expect, it } from 'vitest';
import { isJwksHostEntry, JwksHosts } from './jwks-hosts.ts';

describe('JwksHosts', () => {
  const hosts = new JwksHosts(['IdP.example.com', '*.auth.example.org', '10.0.0.5', '2001:DB8:0:0::1']);
  const allowed = (url: string) => hosts.refusal(url) === undefined;

  it('lets through the listed names, whatever their case, port and scheme', () => {
    expect(allowed('https://idp.example.com/.well-known/jwks.json')).toBe(true);
    expect(allowed('http://IDP.EXAMPLE.COM:8080/jwks')).toBe(true);
    expect(allowed('https://idp.example.com.evil.test/jwks')).toBe(false);
    expect(allowed('https://example.com/jwks')).toBe(false);
  });

  it('lets *.domain through below the domain only', () => {
    expect(allowed('https://tenant.auth.example.org/jwks')).toBe(true);
    expect(allowed('https://a.b.auth.example.org/jwks')).toBe(true);
    expect(allowed('https://auth.example.org/jwks')).toBe(false);
    expect(allowed('https://evilauth.example.org/jwks')).toBe(false);
  });

  it('matches IP addresses, IPv6 in any spelling, and refuses other addresses with the reason', () => {
    expect(allowed('http://10.0.0.5/jwks')).toBe(true);
    expect(allowed('http://[2001:db8::1]:8443/jwks')).toBe(true);
    expect(hosts.refusal('http://169.254.169.254/latest/meta-data')).toBe('host 169.254.169.254 is not in jwks.allowed_hosts: not fetched');
    expect(hosts.refusal('http://[::1]/jwks')).toBe('host ::1 is not in jwks.allowed_hosts: not fetched');
  });

  it('allows every host when empty (the default)', () => {
    expect(new JwksHosts([]).refusal('http://127.0.0.1/jwks')).toBeUndefined();
  });
});

describe('isJwksHostEntry', () => {
  it('accepts names, *.domain and addresses, refuses URLs, ports and other wildcards', () => {
    expect(['idp.example.com', '*.example.com', 'localhost', '10.0.0.1', '::1'].every(isJwksHostEntry)).toBe(true);
    expect(['https://idp.example.com', 'idp.example.com:443', 'idp.example.com/jwks', '*', 'a.*.com', ''].some(isJwksHostEntry)).toBe(false);
  });
});
