// How credentials are kept and checked, shared by the gateway, the dashboard and the governance hub:
//   a key is stored under the SHA-256 hex of the key when keys are hashed (the default: no store holds a usable
//   credential), else under the key itself; the dashboard hands keys to gateways already in their storage form;
//   a configured secret is checked in constant time over SHA-256 digests, so neither its value nor its length
//   leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function storageIdOf(key: string, hashKeys: boolean): string {
  return hashKeys ? hashKey(key) : key;
}

/** A check of presented values against one secret (its digest is taken once); anything but a string fails. */
export function secretMatcher(secret: string): (given: unknown) => boolean {
  const expected = createHash('sha256').update(secret).digest();
  return (given) => typeof given === 'string' && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
}
