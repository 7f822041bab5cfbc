// How a key (credential) is stored: under the SHA-256 hex of the key when keys are hashed (the default: no store
// holds a usable credential), else under the key itself. Shared by the gateway and the dashboard, which hands keys
// to gateways already in their storage form.
import { createHash } from 'node:crypto';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function storageIdOf(key: string, hashKeys: boolean): string {
  return hashKeys ? hashKey(key) : key;
}
