// The drift watch (docs/architecture.md §4): one long-poll loop per gateway (or dashboard) the operator talks to, on its
// change feed (ManagementClient.waitForChange). Whenever the feed moves past what the loop last saw — a write by
// hand, by another tool, or our own — the drift scan runs for that gateway alone, so a hand edit is repaired
// within about a second instead of a drift period. One scan runs at a time per gateway and changes made during it
// answer the next poll at once, so a burst of writes costs a few scans, not one each. A gateway without a change
// feed (404) is left to the periodic scan; a failing poll is retried with backoff. Runs on the leader only.
// Besides the scan, each move is told to `onChange` (the portal kinds: their owners on that dashboard are queued,
// portal-watch.ts), whose reconcile compares and writes nothing when in sync — so our own writes cost a read each.
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { Backoff } from '../../kube/backoff.ts';
import type { ChangeCursor } from '../../mgmt/client.ts';
import type { DriftScanner } from './drift.ts';
import type { GatewayHandle, GatewayRegistry } from './gateways.ts';

export interface ChangeWatchOptions {
  /** How often the registry is checked for gateways not watched yet. Default 1 s. */
  discoverEveryMs?: number;
  /** Delays between failed polls. Default 1 s doubling to 30 s. */
  retry?: { initialMs: number; maxMs: number };
  /** Told of every move of a gateway's feed, before its drift scan (must not throw). Default none. */
  onChange?: (handle: GatewayHandle) => void;
}

export class ChangeWatch {
  readonly #registry: GatewayRegistry;
  readonly #drift: DriftScanner;
  readonly #log: Logger;
  readonly #options: Required<Omit<ChangeWatchOptions, 'onChange'>>;
  readonly #onChange: ((handle: GatewayHandle) => void) | undefined;
  /** Scans the feed triggered (metrics, tests). */
  triggeredScans = 0;

  constructor(registry: GatewayRegistry, drift: DriftScanner, log: Logger, options: ChangeWatchOptions = {}) {
    this.#registry = registry;
    this.#drift = drift;
    this.#log = log;
    const { onChange, ...rest } = options;
    this.#options = { discoverEveryMs: 1000, retry: { initialMs: 1000, maxMs: 30_000 }, ...rest };
    this.#onChange = onChange;
  }

  /** Watches every gateway the registry knows (and those it learns of) until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const watching = new Map<GatewayHandle, Promise<void>>();
    while (!signal.aborted) {
      for (const handle of this.#registry.all()) {
        // A dropped handle (its context moved to other settings) stops being watched.
        if (!watching.has(handle)) watching.set(handle, this.#watch(handle, AbortSignal.any([signal, handle.retired])));
      }
      await sleep(this.#options.discoverEveryMs, undefined, { signal }).catch(() => undefined);
    }
    await Promise.all(watching.values());
  }

  async #watch(handle: GatewayHandle, signal: AbortSignal): Promise<void> {
    const backoff = new Backoff({ ...this.#options.retry, resetAfterMs: this.#options.retry.maxMs * 2 });
    let cursor: ChangeCursor | undefined;
    let failing = false;
    while (!signal.aborted) {
      let next: ChangeCursor | undefined;
      try {
        next = await handle.client.waitForChange(cursor, signal);
      } catch (error) {
        if (signal.aborted) return;
        if (!failing)
          this.#log.warn(
            { gateway: handle.client.url, err: (error as Error).message },
            'change feed not reachable: retrying (the periodic drift scan goes on)',
          );
        failing = true;
        if (!(await backoff.wait(signal))) return;
        continue;
      }
      if (next === undefined) {
        this.#log.info({ gateway: handle.client.url }, 'no change feed on this gateway: drift is found by the periodic scan only');
        return;
      }
      failing = false;
      const moved = cursor !== undefined && (next.version !== cursor.version || next.epoch !== cursor.epoch);
      cursor = next;
      if (!moved) continue;
      this.triggeredScans++;
      this.#onChange?.(handle);
      await this.#drift
        .scan(handle)
        .catch((error: unknown) => this.#log.warn({ gateway: handle.client.url, err: (error as Error).message }, 'drift scan after a change failed'));
    }
  }
}
