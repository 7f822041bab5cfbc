// The client address the IP lists see: the peer's own unless trusted_proxies vouch for it, then X-Forwarded-For
// walked from the right past trusted hops. Unit test of this module with a stand-in request.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { TrustedProxies } from '../../proxy/trusted-proxies.ts';
import { clientAddress } from './client-address.ts';

const request = (peer: string, headers: Record<string, string | string[]> = {}): IncomingMessage =>
  ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  const nobody = new TrustedProxies([]);
  const proxies = new TrustedProxies(['10.0.0.0/8', 'fd00::/8']);

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For and X-Real-IP say', () => {
    expect(clientAddress(request('192.0.2.9', { 'x-forwarded-for': '203.0.113.1', 'x-real-ip': '203.0.113.2' }), nobody)).toBe('192.0.2.9');
    expect(clientAddress(request('::ffff:192.0.2.9'), nobody)).toBe('192.0.2.9');
  });

  it('is the peer when the peer is not a trusted proxy', () => {
    expect(clientAddress(request('192.0.2.9', { 'x-forwarded-for': '203.0.113.1' }), proxies)).toBe('192.0.2.9');
  });

  it('from a trusted proxy, is the rightmost X-Forwarded-For hop no trusted proxy added', () => {
    expect(clientAddress(request('10.1.1.1', { 'x-forwarded-for': '203.0.113.1' }), proxies)).toBe('203.0.113.1');
    // A client that sends its own X-Forwarded-For gets its spoofed entry to the left of its real address.
    expect(clientAddress(request('10.1.1.1', { 'x-forwarded-for': '198.51.100.7, 203.0.113.1, 10.2.2.2' }), proxies)).toBe('203.0.113.1');
    expect(clientAddress(request('fd00::1', { 'x-forwarded-for': '[2001:db8::5]:4711, fd00::2' }), proxies)).toBe('2001:db8::5');
    expect(clientAddress(request('::ffff:10.1.1.1', { 'x-forwarded-for': '203.0.113.1:5000' }), proxies)).toBe('203.0.113.1');
  });

  it('from a trusted proxy without X-Forwarded-For, or with only trusted hops, is the leftmost known address', () => {
    expect(clientAddress(request('10.1.1.1'), proxies)).toBe('10.1.1.1');
    expect(clientAddress(request('10.1.1.1', { 'x-forwarded-for': '10.3.3.3, 10.2.2.2' }), proxies)).toBe('10.3.3.3');
  });

  it('stops at a hop that is not an address: it matches no list entry', () => {
    expect(clientAddress(request('10.1.1.1', { 'x-forwarded-for': '203.0.113.1, bob' }), proxies)).toBe('bob');
  });
});
