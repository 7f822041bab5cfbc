// A bound on concurrent expensive work (password hashing: each scrypt check holds ~32 MiB and a core for tens of
// milliseconds): at most `limit` run at once, up to `queue` more wait in arrival order, and beyond that run()
// refuses at once with HttpError `unavailable` (503) so a burst can never grow memory without bound.
import { HttpError } from './errors.ts';

export interface ConcurrencyGateOptions {
  /** Most tasks running at once. */
  limit: number;
  /** Most tasks waiting for a slot; more are refused. */
  queue: number;
  /** The refusal's message (names the setting to raise). */
  busyMessage: string;
}

export class ConcurrencyGate {
  readonly #options: ConcurrencyGateOptions;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(options: ConcurrencyGateOptions) {
    this.#options = options;
  }

  /** Runs the task when a slot is free; HttpError `unavailable` when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#options.limit) {
      if (this.#waiting.length >= this.#options.queue) throw new HttpError('unavailable', this.#options.busyMessage);
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }

  /** Tasks running now. */
  get running(): number {
    return this.#running;
  }
}
