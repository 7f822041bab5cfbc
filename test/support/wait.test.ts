import { describe, expect, it } from 'vitest';
import { waitUntil } from './wait.ts';

describe('waitUntil', () => {
  it('keeps polling while the probe finds nothing (undefined, null or false), and returns what it finds', async () => {
    const answers = [undefined, null, false, 'found'];
    let calls = 0;
    const found = await waitUntil('the answer', () => answers[calls++], { intervalMs: 1 });
    expect(found).toBe('found');
    expect(calls).toBe(4);
  });

  it('fails naming what it waited for', async () => {
    await expect(waitUntil('the impossible', () => null, { timeoutMs: 20, intervalMs: 5 })).rejects.toThrow('waiting for the impossible');
  });
});
