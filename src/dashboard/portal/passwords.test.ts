// Developer password hashing (passwords.ts): scrypt with a per-hash salt, checked with the stored parameters.
import { describe, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import { hashPassword, passwordMatches, storedPasswordOf } from './passwords.ts';

describe('developer passwords', () => {
  it('hashes with scrypt under a fresh salt and matches only the same password', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse');
    expect(await passwordMatches('correct horse battery', first)).toBe(true);
    expect(await passwordMatches('correct horse battery', second)).toBe(true);
    expect(await passwordMatches('correct horse batterY', first)).toBe(false);
    expect(await passwordMatches('', first)).toBe(false);
  });

  it('keeps checking hashes written with other cost parameters, and refuses what is no scrypt hash', async () => {
    const stored = await hashPassword('pw-123456');
    const [, , , , salt] = stored.split('$');
    const { scryptSync } = await import('node:crypto');
    const cheaper = ['scrypt', 1024, 8, 1, salt, scryptSync('pw-123456', Buffer.from(salt!, 'base64'), 32, { N: 1024, r: 8, p: 1 }).toString('base64')].join(
      '$',
    );
    expect(await passwordMatches('pw-123456', cheaper)).toBe(true);
    expect(await passwordMatches('pw-123456', '$2a$10$hlG1ujAHWUpnM37k.l1RhO6RrxkCpXki2yrGhufnDs1IBiUo4Kzqy')).toBe(false);
    expect(await passwordMatches('pw-123456', 'scrypt$1024$8$1$c2FsdA==')).toBe(false);
  });

  it('answers false for no stored hash (an unknown developer) after running the same work', async () => {
    expect(await passwordMatches('anything at all', undefined)).toBe(false);
  });

  it("keeps a bcrypt hash sent instead of a password (Tyk's sample) and checks it with bcrypt; a costly one is a password", async () => {
    const sent = bcrypt.hashSync('from Tyk', 4);
    expect(await storedPasswordOf(sent)).toBe(sent);
    expect(await passwordMatches('from Tyk', sent)).toBe(true);
    expect(await passwordMatches('something else', sent)).toBe(false);
    const costly = `$2a$31$${'a'.repeat(53)}`;
    const stored = await storedPasswordOf(costly);
    expect(stored).toMatch(/^scrypt\$/);
    expect(await passwordMatches(costly, stored)).toBe(true);
    expect(await storedPasswordOf('plain password')).toMatch(/^scrypt\$/);
  });
});
