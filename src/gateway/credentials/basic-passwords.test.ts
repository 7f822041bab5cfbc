import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, VerifiedPasswords } from './basic-passwords.ts';

describe('VerifiedPasswords', () => {
  it('runs bcrypt once per credential and TTL: a verified password is then answered in place', async () => {
    let clock = 0;
    const passwords = new VerifiedPasswords(() => clock);
    const stored = { password: await hashPassword('right'), hash_type: 'bcrypt' as const };
    const first = passwords.check(stored, 'right', 60);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe(true);
    expect(passwords.check(stored, 'right', 60)).toBe(true); // from the cache: no bcrypt, no promise
    expect(await passwords.check(stored, 'wrong', 60)).toBe(false);
    expect(passwords.check(stored, 'wrong', 60)).toBeInstanceOf(Promise); // failures are never cached
    clock += 61_000;
    expect(passwords.check(stored, 'right', 60)).toBeInstanceOf(Promise); // expired
    expect(passwords.check(stored, 'right', 0)).toBeInstanceOf(Promise); // caching disabled
  });

  it('shares one bcrypt run among concurrent checks of the same credential', async () => {
    const passwords = new VerifiedPasswords(() => 0);
    const stored = { password: await hashPassword('p'), hash_type: 'bcrypt' as const };
    const a = passwords.check(stored, 'p', 60);
    expect(passwords.check(stored, 'p', 60)).toBe(a);
    expect(await a).toBe(true);
  });

  it('never keeps a hit after the stored hash changes (a new password)', async () => {
    const passwords = new VerifiedPasswords(() => 0);
    const before = { password: await hashPassword('old'), hash_type: 'bcrypt' as const };
    expect(await passwords.check(before, 'old', 60)).toBe(true);
    const after = { password: await hashPassword('new'), hash_type: 'bcrypt' as const };
    expect(await passwords.check(after, 'old', 60)).toBe(false);
  });

  it('compares plain and sha256 forms', () => {
    const passwords = new VerifiedPasswords(() => 0);
    expect(passwords.check({ password: 'plain', hash_type: '' }, 'plain', 60)).toBe(true);
    expect(passwords.check({ password: 'plain' }, 'plainer', 60)).toBe(false);
    const sha = createHash('sha256').update('s').digest('hex');
    expect(passwords.check({ password: sha, hash_type: 'sha256' }, 's', 60)).toBe(true);
    expect(passwords.check({ password: sha, hash_type: 'sha256' }, 't', 60)).toBe(false);
  });
});
