// Analytics retention: aggregates and request-log entries older than analytics_retention_days are deleted at start
// and then every analytics_prune_interval_seconds (store/analytics.ts pruneAnalytics). Several dashboard processes
// on one database each prune: the deletes are idempotent. A failed prune is logged and tried again next interval.
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import { pruneAnalytics } from '../store/analytics.ts';

export class AnalyticsRetention {
  readonly #db: Database;
  readonly #retentionMs: number;
  readonly #log: Logger;
  readonly #timer: NodeJS.Timeout;
  #running: Promise<void> | undefined;

  constructor(db: Database, options: { retentionDays: number; intervalSeconds: number }, log: Logger) {
    this.#db = db;
    this.#retentionMs = options.retentionDays * 86_400_000;
    this.#log = log;
    this.#timer = setInterval(() => this.#prune(), options.intervalSeconds * 1000);
    this.#timer.unref();
    this.#prune();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  #prune(): void {
    if (this.#running) return;
    this.#running = pruneAnalytics(this.#db, Date.now() - this.#retentionMs)
      .then(
        (removed) => {
          if (removed > 0) this.#log.info({ removed }, 'analytics past retention deleted');
        },
        (error: unknown) =>
          this.#log.error({ err: error instanceof Error ? error.message : String(error) }, 'analytics retention: delete failed; retried next interval'),
      )
      .finally(() => (this.#running = undefined));
  }
}
