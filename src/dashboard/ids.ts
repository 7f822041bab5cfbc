// Generated identifiers and credentials, all from the CSPRNG: object ids are 24 hex characters (12 bytes, the
// shape dashboard users know), API ids 32, access keys and keys 128 bits of randomness. A key starts with its
// organisation id, as keys do in Tyk, so a key's owner is readable from the key.
import { randomBytes } from 'node:crypto';

export function objectId(): string {
  return randomBytes(12).toString('hex');
}

export function apiId(): string {
  return randomBytes(16).toString('hex');
}

export function accessKey(): string {
  return randomBytes(16).toString('hex');
}

export function newKey(orgId: string): string {
  return `${orgId}${randomBytes(16).toString('hex')}`;
}
