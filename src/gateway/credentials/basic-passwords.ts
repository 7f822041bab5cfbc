// Basic-auth passwords: hashed with bcrypt (cost 10) when a key is written, checked when a request presents one.
// A check that succeeded is remembered for the API's cache_ttl under the SHA-256 of (stored hash, password), so
// bcrypt runs once per credential and TTL rather than per request; a changed password changes the stored hash and
// so never hits an old entry. Concurrent checks of the same credential share one bcrypt run. Comparisons of
// non-bcrypt forms are constant-time. Plain passwords are never kept, logged or returned.
import { createHash, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

export type HashType = '' | 'bcrypt' | 'sha256';

export interface StoredPassword {
  password: string;
  hash_type?: HashType | undefined;
}

export const BCRYPT_COST = 10;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, BCRYPT_COST);
}

export class VerifiedPasswords {
  readonly #verified = new Map<string, number>();
  readonly #inflight = new Map<string, Promise<boolean>>();
  readonly #max: number;
  readonly #now: () => number;

  /** maxEntries: verified credentials remembered (oldest dropped first). Default 10 000. */
  constructor(now: () => number, maxEntries = 10_000) {
    this.#now = now;
    this.#max = maxEntries;
  }

  /** Whether `plain` is the stored password; ttlSeconds 0 checks every time. */
  check(stored: StoredPassword, plain: string, ttlSeconds: number): boolean | Promise<boolean> {
    if (stored.hash_type !== 'bcrypt') return equalDigests(stored.hash_type === 'sha256' ? stored.password : sha256(stored.password), sha256(plain));
    if (ttlSeconds <= 0) return bcrypt.compare(plain, stored.password);
    const id = sha256(`${stored.password}\u0000${plain}`);
    const until = this.#verified.get(id);
    if (until !== undefined && until > this.#now()) return true;
    let pending = this.#inflight.get(id);
    if (!pending) {
      pending = bcrypt.compare(plain, stored.password).then((ok) => {
        this.#inflight.delete(id);
        if (ok) {
          this.#verified.delete(id);
          if (this.#verified.size >= this.#max) this.#verified.delete(this.#verified.keys().next().value!);
          this.#verified.set(id, this.#now() + ttlSeconds * 1000);
        }
        return ok;
      });
      this.#inflight.set(id, pending);
    }
    return pending;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function equalDigests(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
