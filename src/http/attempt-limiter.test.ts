// The failed-attempt limiter on a fake clock: the lock-out after the limit, its doubling and cap, the window, the
// reset, in-flight attempts counting against the limit, and the memory bound (least recently used keys evicted).
import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from './attempt-limiter.ts';

function limiter(overrides: Partial<ConstructorParameters<typeof AttemptLimiter>[0]> = {}) {
  const clock = { now: 1_000_000 };
  const limits = new AttemptLimiter({ maxFailures: 3, windowMs: 10_000, maxLockoutMs: 35_000, maxEntries: 100, now: () => clock.now, ...overrides });
  const fail = (key: string): number => {
    const wait = limits.admit(key);
    if (wait === 0) limits.settle(key, true);
    return wait;
  };
  return { clock, limits, fail };
}

describe('AttemptLimiter', () => {
  it('locks a key out after maxFailures within the window, for the window, and leaves other keys alone', () => {
    const { clock, limits, fail } = limiter();
    expect([fail('a'), fail('a'), fail('a')]).toEqual([0, 0, 0]);
    expect(limits.admit('a')).toBe(10_000);
    expect(limits.admit('b')).toBe(0);
    clock.now += 9_999;
    expect(limits.admit('a')).toBe(1);
    clock.now += 1;
    expect(limits.admit('a')).toBe(0);
  });

  it('doubles each further lock-out up to the cap, and starts over after a quiet cap', () => {
    const { clock, limits, fail } = limiter();
    const lockOut = (): number => {
      fail('a');
      fail('a');
      fail('a');
      const wait = limits.admit('a');
      clock.now += wait;
      return wait;
    };
    expect([lockOut(), lockOut(), lockOut(), lockOut()]).toEqual([10_000, 20_000, 35_000, 35_000]);
    clock.now += 35_000;
    expect(lockOut()).toBe(10_000);
  });

  it('forgets failures older than the window', () => {
    const { clock, limits, fail } = limiter();
    fail('a');
    fail('a');
    clock.now += 10_000;
    fail('a');
    fail('a');
    expect(limits.admit('a')).toBe(0);
  });

  it('forgets everything on reset (a success)', () => {
    const { limits, fail } = limiter();
    fail('a');
    fail('a');
    fail('a');
    expect(limits.admit('a')).toBeGreaterThan(0);
    limits.reset('a');
    expect(limits.admit('a')).toBe(0);
  });

  it('counts attempts in flight against the limit, so a parallel burst is refused beyond it', () => {
    const { limits } = limiter();
    expect([limits.admit('a'), limits.admit('a'), limits.admit('a')]).toEqual([0, 0, 0]);
    expect(limits.admit('a')).toBeGreaterThan(0);
    limits.settle('a', false);
    expect(limits.admit('a')).toBe(0);
  });

  it('never tracks more than maxEntries keys, evicting the least recently used', () => {
    const { limits, fail } = limiter({ maxEntries: 50 });
    fail('kept');
    fail('kept');
    fail('kept');
    for (let i = 0; i < 10_000; i += 1) {
      fail(`flood-${i}`);
      if (i % 10 === 0) expect(limits.admit('kept')).toBeGreaterThan(0); // touched: stays recent
    }
    expect(limits.size).toBe(50);
    expect(limits.admit('kept')).toBeGreaterThan(0);
    expect(limits.admit('flood-0')).toBe(0); // evicted long ago: forgotten
  });

  it('lockedFor answers the lock-out remainder without counting an attempt', () => {
    const { clock, limits, fail } = limiter();
    expect(limits.lockedFor('a')).toBe(0);
    expect(limits.size).toBe(0); // asking tracks nothing
    fail('a');
    fail('a');
    expect(limits.lockedFor('a')).toBe(0);
    fail('a');
    expect(limits.lockedFor('a')).toBe(10_000);
    clock.now += 4_000;
    expect(limits.lockedFor('a')).toBe(6_000);
  });
});
