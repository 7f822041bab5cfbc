import { createHash } from 'node:crypto';
import bcryptjs from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { BCRYPT_COST, HashingBusyError } from '../../http/bcrypt-pool.ts';
import { DEFAULT_GUARD, DUMMY_HASH, VerifiedPasswords, type PasswordGuardOptions } from './basic-passwords.ts';

/** A pool stand-in running bcryptjs in this thread, recording the hashes it was asked to compare against. */
function recordingPool() {
  const hashes: string[] = [];
  return { hashes, compare: (plain: string, hash: string) => (hashes.push(hash), bcryptjs.compare(plain, hash)) };
}

const alice = { user: 'org1alice', client: '10.0.0.1' };
const bcryptStored = async (password: string) => ({ password: await bcryptjs.hash(password, BCRYPT_COST), hash_type: 'bcrypt' as const });

function passwords(options: Partial<PasswordGuardOptions> = {}) {
  const clock = { now: 0 };
  const pool = recordingPool();
  return { clock, pool, checks: new VerifiedPasswords(pool, () => clock.now, { ...DEFAULT_GUARD, ...options }) };
}

describe('VerifiedPasswords', () => {
  it('runs bcrypt once per credential and TTL: a verified password is then answered in place', async () => {
    const { clock, pool, checks } = passwords();
    const stored = await bcryptStored('right');
    const first = checks.check(stored, 'right', 60, alice);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ ok: true });
    expect(checks.check(stored, 'right', 60, alice)).toEqual({ ok: true }); // from the cache: no bcrypt, no promise
    expect(pool.hashes).toHaveLength(1);
    clock.now += 61_000;
    expect(checks.check(stored, 'right', 60, alice)).toBeInstanceOf(Promise); // expired
    expect(checks.check(stored, 'right', 0, alice)).toBeInstanceOf(Promise); // caching disabled
  });

  it('remembers a failure for failureCacheMs: the same wrong guess runs no bcrypt again', async () => {
    const { clock, pool, checks } = passwords({ failureCacheMs: 10_000 });
    const stored = await bcryptStored('right');
    expect(await checks.check(stored, 'wrong', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
    expect(checks.check(stored, 'wrong', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
    expect(pool.hashes).toHaveLength(1);
    clock.now += 10_000;
    expect(await checks.check(stored, 'wrong', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
    expect(pool.hashes).toHaveLength(2);
  });

  it('checks an unknown user against the dummy hash (as slow as a wrong password), always wrong', async () => {
    const { pool, checks } = passwords();
    expect(await checks.check(undefined, 'anything', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
    expect(pool.hashes).toEqual([DUMMY_HASH]);
    expect(DUMMY_HASH.startsWith(`$2b$10$`)).toBe(true); // the same cost as stored passwords
  });

  it('shares one bcrypt run among concurrent checks of the same credential; a new hash never hits an old entry', async () => {
    const { pool, checks } = passwords();
    const before = await bcryptStored('old');
    const [a, b] = [checks.check(before, 'old', 60, alice), checks.check(before, 'old', 60, alice)];
    expect([await a, await b]).toEqual([{ ok: true }, { ok: true }]);
    expect(pool.hashes).toHaveLength(1);
    expect(await checks.check(await bcryptStored('new'), 'old', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
  });

  it('counts parallel checks of one credential as one attempt: none is refused for being in flight', async () => {
    const { pool, checks } = passwords({ maxFailuresPerUser: 2, maxFailuresPerClient: 2 });
    const stored = await bcryptStored('right');
    const verdicts = await Promise.all(Array.from({ length: 8 }, () => Promise.resolve(checks.check(stored, 'right', 60, alice))));
    expect(verdicts).toEqual(Array.from({ length: 8 }, () => ({ ok: true })));
    expect(pool.hashes).toHaveLength(1);
  });

  it('locks a user out after maxFailuresPerUser failures, the right password too, and a success resets the count', async () => {
    const { clock, checks } = passwords({ maxFailuresPerUser: 3, windowMs: 60_000, failureCacheMs: 0 });
    const stored = await bcryptStored('right');
    expect(await checks.check(stored, 'wrong-1', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
    expect(await checks.check(stored, 'right', 60, alice)).toEqual({ ok: true }); // resets alice's count
    for (const guess of ['wrong-2', 'wrong-3', 'wrong-4']) expect(await checks.check(stored, guess, 60, alice)).toEqual({ ok: false, reason: 'wrong' });
    expect(checks.check(stored, 'right', 60, alice)).toEqual({ ok: false, reason: 'locked-out', retryAfterSeconds: 60 }); // even cached
    expect(checks.check(stored, 'right', 60, { ...alice, client: '10.0.0.2' })).toMatchObject({ reason: 'locked-out' }); // per user
    expect(await checks.check(await bcryptStored('bob'), 'bob', 60, { user: 'org1bob', client: alice.client })).toEqual({ ok: true });
    clock.now += 60_000;
    expect(await checks.check(stored, 'right', 60, alice)).toEqual({ ok: true });
  });

  it('locks a client out after maxFailuresPerClient failures, whichever users it tries', async () => {
    const { checks } = passwords({ maxFailuresPerClient: 2, windowMs: 30_000 });
    expect(await checks.check(undefined, 'x', 60, { user: 'u1', client: 'c' })).toEqual({ ok: false, reason: 'wrong' });
    expect(await checks.check(undefined, 'x', 60, { user: 'u2', client: 'c' })).toEqual({ ok: false, reason: 'wrong' });
    expect(checks.check(undefined, 'x', 60, { user: 'u3', client: 'c' })).toEqual({ ok: false, reason: 'locked-out', retryAfterSeconds: 30 });
    expect(await checks.check(undefined, 'x', 60, { user: 'u3', client: 'other' })).toEqual({ ok: false, reason: 'wrong' });
  });

  it('answers busy when the pool refuses, counting no failure', async () => {
    const busy = { compare: () => Promise.reject(new HashingBusyError()) };
    const checks = new VerifiedPasswords(busy, () => 0, { ...DEFAULT_GUARD, maxFailuresPerUser: 1 });
    const stored = await bcryptStored('right');
    expect(await checks.check(stored, 'a', 60, alice)).toEqual({ ok: false, reason: 'busy' });
    expect(await checks.check(stored, 'b', 60, alice)).toEqual({ ok: false, reason: 'busy' }); // not locked out
  });

  it('compares plain and sha256 forms', () => {
    const { checks } = passwords();
    expect(checks.check({ password: 'plain', hash_type: '' }, 'plain', 60, alice)).toEqual({ ok: true });
    expect(checks.check({ password: 'plain' }, 'plainer', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
    const sha = createHash('sha256').update('s').digest('hex');
    expect(checks.check({ password: sha, hash_type: 'sha256' }, 's', 60, alice)).toEqual({ ok: true });
    expect(checks.check({ password: sha, hash_type: 'sha256' }, 't', 60, alice)).toEqual({ ok: false, reason: 'wrong' });
  });
});
