// Key identities. A key is generated as <org_id><32 hex> (Tyk's shape) or chosen by the client (custom key
// ids). It is stored under its storage id: the SHA-256 hex of the key with hash_keys (the default: the store
// never holds a usable credential), else the key itself. Logs and events only ever see `obfuscateKey`.
// Organisation sessions (/gw/org/keys) are stored beside keys under `org/<org_id>`: a storage id no key can have
// (generated and custom keys never contain `/`, hashed ones are hex), but with hash_keys off a client presenting
// `org/<org_id>` would name it, so every client lookup refuses that space (session-cache.ts).
import { randomUUID } from 'node:crypto';

export { hashKey, storageIdOf } from '../../domain/key-hash.ts';

const ORGANISATION_SESSION_PREFIX = 'org/';

/** The storage id of an organisation's session. */
export function organisationSessionId(orgId: string): string {
  return `${ORGANISATION_SESSION_PREFIX}${orgId}`;
}

/** Whether a storage id is an organisation session's (never a client's key). */
export function isOrganisationSessionId(storageId: string): boolean {
  return storageId.startsWith(ORGANISATION_SESSION_PREFIX);
}

export function generateKey(orgId: string | undefined): string {
  return `${orgId ?? ''}${randomUUID().replaceAll('-', '')}`;
}

/** The key of a client certificate (use_certificate): <org_id><certificate id>, certificate id = <org_id><SHA-256 hex>. */
export function certificateKey(orgId: string | undefined, certificateId: string): string {
  return `${orgId ?? ''}${certificateId}`;
}

/** Custom key ids end up in URLs and counter names: a conservative alphabet, and long enough to guess badly. */
export function customKeyProblem(key: string, minLength: number): string | undefined {
  if (key.length < minLength) return `custom key ID length ${key.length} is less than min_token_length (${minLength})`;
  if (key.length > 256) return 'custom key ID is longer than 256 characters';
  if (!/^[A-Za-z0-9._~-]+$/.test(key)) return 'custom key ID must consist of A-Z a-z 0-9 . _ ~ -';
  return undefined;
}

/** The last four characters only, for logs and events. */
export function obfuscateKey(key: string): string {
  return key.length <= 4 ? '****' : `****${key.slice(-4)}`;
}
