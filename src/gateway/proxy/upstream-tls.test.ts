import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { pemMaterial } from '../../../test/support/pem-material.ts';
import { GatewayConfigSchema } from '../config.ts';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { Store } from '../store/store.ts';
import { publicKeyPin } from './upstream-pinning.ts';
import { lookup, upstreamTlsResolver } from './upstream-tls.ts';

describe('upstream TLS host lookup', () => {
  const url = new URL('https://api.example.com:8443/x');
  it('prefers host:port, then *.parent:port, then host, then *.parent, then *', () => {
    const all = { 'api.example.com:8443': 'a', '*.example.com:8443': 'b', 'api.example.com': 'c', '*.example.com': 'd', '*': 'e' };
    const order: string[] = [];
    const map: Record<string, string> = { ...all };
    for (const key of Object.keys(all)) {
      order.push(lookup(map, url)!);
      delete map[key];
    }
    expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(lookup({ 'other.example.org': 'x' }, url)).toBeUndefined();
  });
});

describe('upstreamTlsResolver', () => {
  const material = pemMaterial('upstream.example');
  const certs = new Map([
    ['org1client', `${material.cert}${material.key}`],
    ['org1pin', material.issuedCert],
  ]);
  const store = { getCert: async (id: string) => (certs.has(id) ? { id, pem: certs.get(id)! } : undefined) } as unknown as Store;
  const spec = (extra: Partial<ApiSpec>) => ({ id: 'api', ...extra }) as ApiSpec;
  const target = { origin: 'https://upstream.example:443', host: 'upstream.example', basePath: '' };
  const config = (security: unknown) => GatewayConfigSchema.parse({ secret: 's', security });
  const log = pino({ level: 'silent' });

  it('merges the API maps over the gateway-wide security maps, and ignores both when disabled', async () => {
    const services = { config: config({ certificates: { upstream: { '*': 'org1client' } }, pinned_public_keys: { '*': 'org1pin' } }), store, log };
    const merged = await upstreamTlsResolver(spec({ upstreamCertificates: {}, pinnedPublicKeys: { 'upstream.example': 'org1client' } }), services)!(target);
    expect(merged?.clientCertificate).toBe(certs.get('org1client'));
    expect(merged?.pinnedKeys).toEqual([publicKeyPin(new X509Certificate(material.cert))]);
    expect(upstreamTlsResolver(spec({}), services)).toBeUndefined();
    expect(upstreamTlsResolver(spec({ upstreamCertificates: {}, pinnedPublicKeys: {} }), { ...services, config: config({}) })).toBeUndefined();
    expect(await upstreamTlsResolver(spec({ upstreamCertificates: {} }), services)!({ ...target, origin: 'http://upstream.example:80' })).toBeUndefined();
  });

  it('pins nothing valid when no pinned id can be read (the upstream is then refused)', async () => {
    const services = { config: config({}), store, log };
    const resolved = await upstreamTlsResolver(spec({ pinnedPublicKeys: { '*': 'org1missing' } }), services)!(target);
    expect(resolved?.pinnedKeys).toEqual([]);
  });
});
