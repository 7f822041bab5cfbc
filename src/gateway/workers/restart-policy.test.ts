// The supervisor's rule for dead workers (restart-policy.ts), on a clock the test moves: at once, then doubling
// delays, and giving up on the death past the limit within the window; deaths older than the window are forgotten;
// the first delay from GW_WORKER_RESTART_BACKOFF_MS.
import { describe, expect, it } from 'vitest';
import { RestartPolicy, WORKER_RESTART_LIMITS, workerRestartLimits } from './restart-policy.ts';

const limits = { maxRestarts: 3, windowMs: 10_000, firstBackoffMs: 100, maxBackoffMs: 150 };

describe('RestartPolicy', () => {
  it('restarts at once, then backs off (doubling, capped), then gives up past the limit in the window', () => {
    let now = 0;
    const policy = new RestartPolicy(limits, () => now);
    expect(policy.died()).toEqual({ restartInMs: 0 });
    now += 1_000;
    expect(policy.died()).toEqual({ restartInMs: 100 });
    now += 1_000;
    expect(policy.died()).toEqual({ restartInMs: 150 });
    now += 1_000;
    expect(policy.died()).toBe('give-up');
  });

  it('forgets deaths older than the window', () => {
    let now = 0;
    const policy = new RestartPolicy(limits, () => now);
    for (let i = 0; i < 3; i++) policy.died();
    now += 10_000;
    expect(policy.died()).toEqual({ restartInMs: 0 });
  });
});

describe('workerRestartLimits', () => {
  it('takes the first delay from GW_WORKER_RESTART_BACKOFF_MS and keeps the rest', () => {
    expect(workerRestartLimits({ GW_WORKER_RESTART_BACKOFF_MS: '10' })).toEqual({ ...WORKER_RESTART_LIMITS, firstBackoffMs: 10 });
  });

  it('keeps the defaults when it is unset or not a whole number of ms', () => {
    for (const value of [undefined, '', '-1', '1.5', 'soon', '10000000']) {
      expect(workerRestartLimits({ GW_WORKER_RESTART_BACKOFF_MS: value })).toEqual(WORKER_RESTART_LIMITS);
    }
  });
});
