// The change watch against a management client whose change feed the test drives: a scan of that gateway (and
// onChange told of it) only when the feed moves past what was seen (not for the first answer), none while it stands still, a retry after a
// failing poll, and the end of watching when the gateway has no feed or its handle is dropped (retired).
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeCursor, ManagementClient } from '../../mgmt/client.ts';
import { MgmtError } from '../../mgmt/client.ts';
import { ChangeWatch } from './change-watch.ts';
import type { DriftScanner } from './drift.ts';
import type { GatewayHandle, GatewayRegistry } from './gateways.ts';

/** A feed the test moves: each waitForChange answers once `version`/`epoch` differ from the cursor (or at once without one). */
function feed() {
  const state = { version: 0, epoch: 'e1', polls: 0, failNext: false, missing: false };
  let wake: (() => void) | undefined;
  const client = {
    url: 'http://gateway.test',
    waitForChange: async (cursor: ChangeCursor | undefined, signal?: AbortSignal): Promise<ChangeCursor | undefined> => {
      state.polls++;
      if (state.missing) return undefined;
      if (state.failNext) {
        state.failNext = false;
        throw new MgmtError('unavailable', 'connection refused');
      }
      while (cursor && cursor.version === state.version && cursor.epoch === state.epoch) {
        await new Promise<void>((resolve, reject) => {
          wake = resolve;
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
      }
      return { version: state.version, epoch: state.epoch };
    },
  } as unknown as ManagementClient;
  const move = (change: Partial<typeof state>) => {
    Object.assign(state, change);
    wake?.();
  };
  return { client, state, move };
}

const log = pino({ level: 'silent' });
const stops: AbortController[] = [];
afterEach(() => stops.splice(0).forEach((s) => s.abort()));

function watching(client: ManagementClient) {
  const retire = new AbortController();
  const handle = { client, retired: retire.signal } as GatewayHandle;
  const scanned: GatewayHandle[] = [];
  const told: GatewayHandle[] = [];
  const drift = { scan: (only?: GatewayHandle) => (scanned.push(only!), Promise.resolve(0)) } as unknown as DriftScanner;
  const registry = { all: () => [handle] } as unknown as GatewayRegistry;
  const watch = new ChangeWatch(registry, drift, log, { discoverEveryMs: 10, retry: { initialMs: 5, maxMs: 10 }, onChange: (h) => told.push(h) });
  const stop = new AbortController();
  stops.push(stop);
  const running = watch.run(stop.signal);
  return { handle, scanned, told, running, stop, retire };
}

describe('ChangeWatch', () => {
  it('scans the gateway each time its feed moves, not for the first answer', async () => {
    const { client, state, move } = feed();
    const { handle, scanned, told } = watching(client);
    await vi.waitFor(() => expect(state.polls).toBe(2)); // the baseline, then a waiting poll
    expect(scanned).toEqual([]);
    expect(told).toEqual([]);
    move({ version: 1 });
    await vi.waitFor(() => expect(scanned).toEqual([handle]));
    expect(told).toEqual([handle]); // the portal kinds hear of the move too (onChange)
    move({ epoch: 'e2' }); // the gateway restarted: its counter means something else now
    await vi.waitFor(() => expect(scanned).toEqual([handle, handle]));
    expect(told).toEqual([handle, handle]);
  });

  it('retries a failing poll and goes on watching', async () => {
    const { client, state, move } = feed();
    state.failNext = true;
    const { scanned } = watching(client);
    await vi.waitFor(() => expect(state.polls).toBe(3)); // failed, baseline, waiting
    move({ version: 5 });
    await vi.waitFor(() => expect(scanned).toHaveLength(1));
  });

  it('stops watching a gateway without a change feed (the periodic scan covers it)', async () => {
    const { client, state } = feed();
    state.missing = true;
    const { stop, running, scanned } = watching(client);
    await vi.waitFor(() => expect(state.polls).toBe(1));
    stop.abort();
    await running;
    expect(state.polls).toBe(1);
    expect(scanned).toEqual([]);
  });

  it('stops polling a gateway whose handle was dropped (its context moved to other settings)', async () => {
    const { client, state, move } = feed();
    const { retire, scanned, stop, running } = watching(client);
    await vi.waitFor(() => expect(state.polls).toBe(2)); // the first answer, then a long poll waiting for a move
    retire.abort();
    move({ version: 1 });
    // One full turn of the event loop: a watch still going would have seen the move and scanned by now.
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    await running;
    expect(scanned).toEqual([]);
    expect(state.polls).toBe(2);
  });
});
