// Which TLS setup an API uses towards an HTTPS upstream host: the client certificate of upstream_certificates and
// the public keys of pinned_public_keys, each the API's map merged over the gateway-wide one (security.*; an API
// with upstream_certificates_disabled / certificate_pinning_disabled uses neither). A host is looked up as Tyk
//  does (cert.go): `host:port`, `*.parent:port`, `host`, `*.parent`, then `*`; the first present wins.
// Certificate ids are read from the store when a host is first called; a setup whose every id was found is kept
// for the life of the compiled API (a reload recompiles it), one with a missing id is read again next time.
// A missing client certificate is logged and the upstream called without one (Tyk does the same); a pin
// entry none of whose keys can be read pins nothing valid, so the upstream is refused (fail closed).
import { createHash, createPublicKey, X509Certificate } from 'node:crypto';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { UpstreamTarget } from '../definition/version-spec.ts';
import type { PipelineServices, UpstreamTls } from '../pipeline/services.ts';
import { parseCertificateBundle } from '../../pem/certificate-bundle.ts';
import { publicKeyPin } from './upstream-pinning.ts';

export type UpstreamTlsResolver = (target: UpstreamTarget) => UpstreamTls | undefined | Promise<UpstreamTls | undefined>;

/** undefined when the API has no upstream certificate or pin anywhere (the common case costs nothing per request). */
export function upstreamTlsResolver(spec: ApiSpec, services: Pick<PipelineServices, 'config' | 'store' | 'log'>): UpstreamTlsResolver | undefined {
  const security = services.config.security;
  const certificates = spec.upstreamCertificates ? { ...security.certificates.upstream, ...spec.upstreamCertificates } : {};
  const pins = spec.pinnedPublicKeys ? { ...security.pinned_public_keys, ...spec.pinnedPublicKeys } : {};
  if (Object.keys(certificates).length === 0 && Object.keys(pins).length === 0) return undefined;
  const settled = new Map<string, UpstreamTls | undefined>();
  // Keyed by the target's origin (scheme://host:port): a settled origin answers from the map, without parsing a URL.
  return (target) => {
    if (settled.has(target.origin)) return settled.get(target.origin);
    const url = new URL(target.origin);
    if (url.protocol !== 'https:') {
      settled.set(target.origin, undefined);
      return undefined;
    }
    return resolve(url, lookup(certificates, url), lookup(pins, url)).then(({ tls, complete }) => {
      if (complete) settled.set(target.origin, tls);
      return tls;
    });
  };

  async function resolve(
    url: URL,
    certificateId: string | undefined,
    pinEntry: string | undefined,
  ): Promise<{ tls: UpstreamTls | undefined; complete: boolean }> {
    let complete = true;
    let clientCertificate: string | undefined;
    if (certificateId) {
      clientCertificate = (await services.store.getCert(certificateId))?.pem;
      if (!clientCertificate) {
        complete = false;
        services.log.warn(
          { api_id: spec.id, upstream: url.host, certificate_id: certificateId },
          'upstream certificate not found in the certificate store: calling the upstream without a client certificate',
        );
      }
    }
    let pinnedKeys: string[] | undefined;
    if (pinEntry !== undefined) {
      pinnedKeys = [];
      for (const entry of pinEntry
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const pin = await pinOf(entry);
        if (pin) pinnedKeys.push(pin);
        else {
          complete = false;
          services.log.warn(
            { api_id: spec.id, upstream: url.host, pinned_key: entry.startsWith('-----') ? '(PEM)' : entry },
            'pinned public key not found in the certificate store',
          );
        }
      }
    }
    if (!clientCertificate && !pinnedKeys) return { tls: undefined, complete };
    const id = createHash('sha256')
      .update(`${certificateId ?? ''}\n${clientCertificate ?? ''}\n${(pinnedKeys ?? ['-']).join(',')}`)
      .digest('base64url');
    return { tls: { id, ...(clientCertificate ? { clientCertificate } : {}), ...(pinnedKeys ? { pinnedKeys } : {}) }, complete };
  }

  /** A store id (its leaf's public key), or an inline PEM certificate or public key. */
  async function pinOf(entry: string): Promise<string | undefined> {
    try {
      if (entry.startsWith('-----BEGIN CERTIFICATE')) return publicKeyPin(new X509Certificate(entry));
      if (entry.startsWith('-----BEGIN'))
        return createHash('sha256')
          .update(createPublicKey(entry).export({ type: 'spki', format: 'der' }))
          .digest('base64');
      const stored = await services.store.getCert(entry);
      return stored ? publicKeyPin(parseCertificateBundle(stored.pem).leaf) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Tyk's host lookup over a domain -> value map. */
export function lookup(map: Record<string, string>, url: URL): string | undefined {
  const host = url.hostname.toLowerCase();
  const port = url.port || '443';
  const parent = host.includes('.') ? `*.${host.slice(host.indexOf('.') + 1)}` : undefined;
  const candidates = [`${host}:${port}`, ...(parent ? [`${parent}:${port}`] : []), host, ...(parent ? [parent] : []), '*'];
  for (const candidate of candidates) {
    const value = map[candidate];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}
