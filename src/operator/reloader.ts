// Coalesced gateway reloads (DESIGN.md §4): any number of reload requests within `debounceMs` become one reload;
// a request arriving while a reload runs schedules exactly one more after it. A failed reload is retried by the
// next request (and by the drift scan); it never fails the reconcile that asked for it.
import type { Logger } from 'pino';
import type { ManagementClient } from '../mgmt/client.ts';

export class Reloader {
  readonly #client: ManagementClient;
  readonly #debounceMs: number;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  /** Reloads actually sent (metrics, tests). */
  sent = 0;

  constructor(client: ManagementClient, debounceMs: number, log: Logger) {
    this.#client = client;
    this.#debounceMs = debounceMs;
    this.#log = log;
  }

  request(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#reload().finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.request();
        }
      });
    }, this.#debounceMs);
  }

  /** Waits for the scheduled or running reload (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#timer || this.#running) await (this.#running ?? new Promise((r) => setTimeout(r, this.#debounceMs)));
  }

  async #reload(): Promise<void> {
    try {
      this.sent++;
      await this.#client.reload();
    } catch (error) {
      this.#log.warn({ gateway: this.#client.url, err: (error as Error).message }, 'gateway reload failed: it will be retried');
    }
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
