// Who may use the management API (and Tyk's authorize-client endpoint of OAuth APIs): a request carrying the
// gateway's shared secret in gw's header x-gw-authorization or in Tyk Gateway's X-Tyk-Authorization, so scripts
// written for Tyk work unchanged. Each header present is compared in constant time over SHA-256 digests
// (domain/key-hash.ts secretMatcher): neither the value nor its length leaks.
import type { IncomingHttpHeaders } from 'node:http';
import { secretMatcher } from '../../domain/key-hash.ts';

export const MANAGEMENT_SECRET_HEADERS = ['x-gw-authorization', 'x-tyk-authorization'] as const;

/** True when either management header carries `secret`. */
export function managementSecretCheck(secret: string): (headers: IncomingHttpHeaders) => boolean {
  const isSecret = secretMatcher(secret);
  return (headers) => {
    const gw = isSecret(headers['x-gw-authorization']);
    const tyk = isSecret(headers['x-tyk-authorization']);
    return gw || tyk;
  };
}
