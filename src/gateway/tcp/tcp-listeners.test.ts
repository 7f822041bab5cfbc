// How a tls port shared by several APIs picks the API of a connection (routeBySni in tcp/tcp-listeners.ts), as Tyk
// Gateway routes: the exact domain, then the API without a domain; without SNI, only a port's single API.
import { describe, expect, it } from 'vitest';
import type { TcpApi } from './tcp-api.ts';
import { routeBySni } from './tcp-listeners.ts';

const api = (id: string, domain?: string): TcpApi => ({
  id,
  protocol: 'tls',
  port: 6443,
  domain,
  target: { tls: false, host: '127.0.0.1', port: 6379 },
  ipAccess: undefined,
  certificates: [],
  fingerprint: id,
});

describe('routeBySni', () => {
  const shared = [api('a', 'a.test'), api('any')];

  it('chooses the exact domain (case-insensitive), else the API without a domain', () => {
    expect(routeBySni(shared, 'A.test')?.id).toBe('a');
    expect(routeBySni(shared, 'other.test')?.id).toBe('any');
    expect(routeBySni([api('a', 'a.test')], 'other.test')).toBeUndefined();
  });

  it("without SNI takes a port's only API and refuses a shared port", () => {
    expect(routeBySni([api('a', 'a.test')], false)?.id).toBe('a');
    expect(routeBySni(shared, false)).toBeUndefined();
  });
});
