// SignInThrottle.signUp: every sign-up run counts, one that threw (an e-mail found taken) too; a client at
// sign_up_max_per_client is locked out for the window, then may sign up again; other clients are unaffected.
import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle.ts';

const config = {
  sign_in_max_failures_per_client: 20,
  sign_in_max_failures_per_account: 5,
  sign_in_window_seconds: 60,
  sign_in_max_lockout_seconds: 600,
  sign_in_tracked_entries: 100,
  password_check_concurrency: 1,
  password_check_queue: 0,
  sign_up_max_per_client: 2,
};

describe('sign-up throttle', () => {
  it('counts successes and failures alike, locks the client out for the window, then lets it sign up again', async () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(config, () => now);
    expect(await throttle.signUp('10.0.0.1', async () => 'first')).toEqual({ kind: 'ran', value: 'first' });
    await expect(throttle.signUp('10.0.0.1', () => Promise.reject(new Error('e-mail taken')))).rejects.toThrow('e-mail taken');
    let ran = false;
    const locked = await throttle.signUp('10.0.0.1', async () => (ran = true));
    expect(locked).toEqual({ kind: 'locked-out', retryAfterSeconds: 60 });
    expect(ran).toBe(false);
    expect((await throttle.signUp('10.0.0.2', async () => 'elsewhere')).kind).toBe('ran');
    now += 60_000;
    expect((await throttle.signUp('10.0.0.1', async () => 'again')).kind).toBe('ran');
  });
});
