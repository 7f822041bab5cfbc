// Retention: rows older than a number of days are deleted at start and then every interval, one pruner per kind
// of data: analytics (analytics_retention_days, store/analytics.ts pruneAnalytics) and the audit log
// (audit_retention_days, store/audit.ts pruneAudit). Several dashboard processes on one database each prune: the
// deletes are idempotent. A failed prune is logged and tried again next interval; prunes of one kind never overlap.
import type { Logger } from 'pino';
import type { Queryable } from '../db/database.ts';

export interface RetentionOptions {
  /** What is pruned, for the log lines, e.g. `analytics`. */
  what: string;
  retentionDays: number;
  intervalSeconds: number;
  /** Deletes the rows older than `before` (epoch milliseconds); answers how many went. */
  prune: (db: Queryable, before: number) => Promise<number>;
  /** The clock (epoch milliseconds); tests inject one. */
  now?: () => number;
}

export class Retention {
  readonly #db: Queryable;
  readonly #options: RetentionOptions;
  readonly #log: Logger;
  readonly #timer: NodeJS.Timeout;
  #running: Promise<void> | undefined;

  constructor(db: Queryable, options: RetentionOptions, log: Logger) {
    this.#db = db;
    this.#options = options;
    this.#log = log;
    this.#timer = setInterval(() => this.#prune(), options.intervalSeconds * 1000);
    this.#timer.unref();
    this.#prune();
  }

  /** Stops the interval and waits for a prune in progress (the first one included). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  #prune(): void {
    if (this.#running) return;
    const { what, retentionDays, prune, now = Date.now } = this.#options;
    this.#running = prune(this.#db, now() - retentionDays * 86_400_000)
      .then(
        (removed) => {
          if (removed > 0) this.#log.info({ removed }, `${what} past retention deleted`);
        },
        (error: unknown) =>
          this.#log.error({ err: error instanceof Error ? error.message : String(error) }, `${what} retention: delete failed; retried next interval`),
      )
      .finally(() => (this.#running = undefined));
  }
}
