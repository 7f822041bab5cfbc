import { describe, expect, it } from 'vitest';
import { consumeQuota, RateWindow, type QuotaCounter } from './limits.ts';

describe('RateWindow (rolling window)', () => {
  it('accepts `rate` requests in any window of `per` and rejects the next', () => {
    const window = new RateWindow(3);
    const results = [0, 10, 20, 30].map((t) => window.check(3, 1000, t));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3]!.retryAfterMs).toBe(970); // the first request leaves the window at 1000
  });

  it('does not count rejected requests: a client hammering over its rate recovers when the window has room', () => {
    const window = new RateWindow(2);
    window.check(2, 1000, 0);
    window.check(2, 1000, 100);
    for (let t = 200; t < 1000; t += 50) expect(window.check(2, 1000, t).allowed).toBe(false);
    expect(window.check(2, 1000, 1000).allowed).toBe(true); // the request of t=0 left; Tyk would still block
    expect(window.check(2, 1000, 1050).allowed).toBe(false);
    expect(window.check(2, 1000, 1100).allowed).toBe(true);
  });

  it('is a rolling window, not a fixed one', () => {
    const window = new RateWindow(2);
    expect(window.check(2, 1000, 900).allowed).toBe(true);
    expect(window.check(2, 1000, 950).allowed).toBe(true);
    // A fixed window would reset at 1000 and let two more through at once.
    expect(window.check(2, 1000, 1001).allowed).toBe(false);
    expect(window.check(2, 1000, 1900).allowed).toBe(true);
  });

  it('peeks without consuming on a dry run', () => {
    const window = new RateWindow(1);
    expect(window.check(1, 1000, 0, true)).toMatchObject({ allowed: true, remaining: 0 });
    expect(window.check(1, 1000, 1).allowed).toBe(true);
    expect(window.check(1, 1000, 2, true).allowed).toBe(false);
  });

  it('follows a changed rate, keeping the newest requests', () => {
    const window = new RateWindow(5);
    for (let t = 0; t < 4; t++) window.check(5, 1000, t);
    expect(window.check(2, 1000, 10).allowed).toBe(false);
    expect(window.check(6, 1000, 11).allowed).toBe(true);
  });

  it('costs memory for the requests in the window, not for the configured rate', () => {
    const window = new RateWindow(1_000_000_000);
    expect(window.capacity).toBe(16);
    for (let t = 0; t < 100; t++) expect(window.check(1_000_000_000, 60_000, t).allowed).toBe(true);
    expect(window.capacity).toBe(128);
  });

  it('says when it holds nothing younger than its window', () => {
    const window = new RateWindow(2);
    window.check(2, 1000, 0);
    expect(window.idle(500)).toBe(false);
    expect(window.idle(1000)).toBe(true);
  });
});

describe('consumeQuota', () => {
  it('lets exactly quota_max requests through per period and does not count rejected ones', () => {
    let counter: QuotaCounter | undefined;
    const allowed: boolean[] = [];
    for (let i = 0; i < 8; i++) {
      const result = consumeQuota(counter, 5, 60_000, 1000 + i);
      counter = result.counter;
      allowed.push(result.allowed);
    }
    expect(allowed).toEqual([true, true, true, true, true, false, false, false]);
    expect(counter).toEqual({ used: 5, renewsAt: 61_000 });
  });

  it('reports remaining after each request and the end of the period', () => {
    const first = consumeQuota(undefined, 3, 10_000, 5000);
    expect(first.state).toEqual({ used: 1, remaining: 2, renewsAt: 15_000 });
    const second = consumeQuota(first.counter, 3, 10_000, 6000);
    expect(second.state).toEqual({ used: 2, remaining: 1, renewsAt: 15_000 });
  });

  it('starts a new period at the first request after the old one ended, not on a timer', () => {
    const spent: QuotaCounter = { used: 2, renewsAt: 10_000 };
    expect(consumeQuota(spent, 2, 10_000, 9_999).allowed).toBe(false);
    const renewed = consumeQuota(spent, 2, 10_000, 25_000);
    expect(renewed.allowed).toBe(true);
    expect(renewed.counter).toEqual({ used: 1, renewsAt: 35_000 }); // the period begins at that request
  });

  it('never renews when quota_renewal_rate is 0', () => {
    const result = consumeQuota(undefined, 1, 0, 1000);
    expect(result.counter).toEqual({ used: 1, renewsAt: 0 });
    expect(consumeQuota(result.counter, 1, 0, 10 ** 12).allowed).toBe(false);
  });
});
