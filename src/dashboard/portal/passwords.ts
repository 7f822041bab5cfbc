// Developer passwords: hashed with scrypt (node:crypto, memory-hard) under a random 16-byte salt, stored as
// `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` so the cost can be raised later without breaking stored hashes.
// Checking recomputes the hash with the stored parameters and compares in constant time. A check against no
// stored hash (an unknown e-mail) still runs one scrypt, so the answer's timing does not tell whether the
// developer exists. Tyk's clients may send a bcrypt hash instead of a password (its own sample does):
// storedPasswordOf() keeps such a hash (cost 4 to 14, so a check stays bounded) as it is, and passwordMatches()
// checks it with bcrypt. Passwords and hashes are never logged or answered.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import bcrypt from 'bcryptjs';

/** scrypt cost: N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds per hash). */
const COST = { N: 1 << 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** A bcrypt hash ($2a$, $2b$ or $2y$) of cost 04 to 14. */
const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|1[0-4])\$[./A-Za-z0-9]{53}$/;

/** What to store for a password as a client gave it: a bcrypt hash as it is, anything else hashed with scrypt. */
export async function storedPasswordOf(given: string): Promise<string> {
  return BCRYPT_HASH.test(given) ? given : hashPassword(given);
}

/** A hash of a random password, for checks against no developer (same cost as a real one); made on first use. */
let decoy: Promise<string> | undefined;

/** Whether the password matches the stored hash; undefined stored: runs a decoy check and answers false. */
export async function passwordMatches(password: string, stored: string | undefined): Promise<boolean> {
  if (stored !== undefined && BCRYPT_HASH.test(stored)) return bcrypt.compare(password, stored);
  const parts = (stored ?? (await (decoy ??= hashPassword(randomBytes(16).toString('hex'))))).split('$');
  const [scheme, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash!, 'base64');
  const actual = await derive(password, Buffer.from(salt!, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
}
