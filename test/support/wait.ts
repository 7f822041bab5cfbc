// Waiting on a condition instead of sleeping: polls a probe until it yields a value, with a bounded deadline, and
// fails naming what it waited for. Tests use it wherever an order or a state must be reached before asserting;
// it must never be used to pace a test by time alone.
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Give up after this long. Default 30 000 ms. */
  timeoutMs?: number;
  /** Pause between two probes. Default 50 ms. */
  intervalMs?: number;
}

/**
 * Calls `probe` until it returns something other than `undefined`, `null` or `false` (so a RegExp's `exec` or a
 * lookup that finds nothing means "not yet"), and returns that. Throws after
 * `timeoutMs` with `what` (a function is called then, e.g. to show the last state read).
 */
export async function waitUntil<T>(
  what: string | (() => string),
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 30_000, intervalMs = 50 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(intervalMs);
  }
}
