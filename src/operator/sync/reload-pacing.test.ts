// The reloader's pacing: a reload requested while one runs follows it no sooner than the last one took (and never
// sooner than the debounce), so a gateway whose reload is slow answers writes between reloads. Fake timers: the
// client's reload takes 1 000 ms of fake time.
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ManagementClient } from '../../mgmt/client.ts';
import { Reloader } from './reloader.ts';

afterEach(() => void vi.useRealTimers());

describe('Reloader pacing', () => {
  it('waits as long as the last reload took before the next one, then reloads', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    let reloads = 0;
    const client = {
      url: 'http://gateway.test',
      reload: async () => {
        reloads++;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      },
    } as unknown as ManagementClient;
    const reloader = new Reloader(client, { debounceMs: 20 }, pino({ level: 'silent' }));
    const first = reloader.request();
    await vi.advanceTimersByTimeAsync(20);
    expect(reloads).toBe(1);
    const during = reloader.request();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reloader.state(first).state).toBe('done');
    await vi.advanceTimersByTimeAsync(500); // well past the debounce: still the slow reload's own time
    expect(reloads).toBe(1);
    expect(reloader.state(during).state).toBe('pending');
    await vi.advanceTimersByTimeAsync(500);
    expect(reloads).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reloader.state(during).state).toBe('done');
    reloader.stop();
  });
});
