// Ships analytics records off the request path: records wait in a bounded RecordBuffer and leave in batches of at
// most batch_size, every flush_interval and as soon as a batch is full. A batch leaves the buffer only once the
// dashboard accepted it; while the dashboard is down (a network error, 5xx, 429) the same batch is retried with
// exponential backoff (retry_initial_ms doubling up to retry_max_ms) and new records keep filling the buffer up to
// its capacity (max_buffered_records); beyond it each record is dropped and counted
// (gw_analytics_records_dropped_total{reason="buffer_full"}). A batch the dashboard refuses for what it is (another
// 4xx: too large, malformed) would be refused forever: it is dropped and counted (reason "refused"). close() stops
// the timers and ships what is left until its deadline or the dashboard's first failure; what still cannot leave is
// counted (reason "shutdown").
// Must never: block or throw on record(), hold more than the buffer's capacity, or ship a batch twice on purpose.
import type { Logger } from 'pino';
import type { AnalyticsRecord } from '../../domain/analytics-record.ts';
import type { GatewayMetrics } from '../metrics.ts';
import { RecordBuffer } from './record-buffer.ts';

/** What became of one batch: accepted, to be retried later (the dashboard is unavailable), or refused for good. */
export type ShipOutcome = 'accepted' | 'retry' | 'refused';

/** Ships one batch; a record is an AnalyticsRecord, or its JSON text (what the gateway buffers: dashboard-shipping.ts). */
export type SendBatch<R = AnalyticsRecord> = (records: R[]) => Promise<ShipOutcome>;

export interface ShipperOptions {
  max_buffered_records: number;
  batch_size: number;
  flush_interval_ms: number;
  retry_initial_ms: number;
  retry_max_ms: number;
}

export class AnalyticsShipper<R = AnalyticsRecord> {
  readonly #buffer: RecordBuffer<R>;
  readonly #options: ShipperOptions;
  readonly #send: SendBatch<R>;
  readonly #metrics: GatewayMetrics;
  readonly #log: Logger;
  readonly #timer: NodeJS.Timeout;
  #shipping: Promise<void> | undefined;
  #failures = 0;
  #retryAt = 0;
  #soonScheduled = false;
  #closed = false;

  constructor(options: ShipperOptions, send: SendBatch<R>, metrics: GatewayMetrics, log: Logger) {
    this.#options = options;
    this.#buffer = new RecordBuffer(options.max_buffered_records);
    this.#send = send;
    this.#metrics = metrics;
    this.#log = log;
    metrics.analyticsBuffer(() => this.#buffer.size);
    this.#timer = setInterval(() => this.#flushIfDue(), options.flush_interval_ms);
    this.#timer.unref();
  }

  /** The request path's only call: store the record (or count it dropped). */
  record(record: R): void {
    if (this.#closed) {
      this.#metrics.analyticsDropped('shutdown');
      return;
    }
    if (!this.#buffer.push(record)) {
      this.#metrics.analyticsDropped('buffer_full');
      return;
    }
    if (this.#buffer.size >= this.#options.batch_size && !this.#soonScheduled) {
      this.#soonScheduled = true;
      setImmediate(() => {
        this.#soonScheduled = false;
        this.#flushIfDue();
      });
    }
  }

  get buffered(): number {
    return this.#buffer.size;
  }

  /** Stops the timers and ships what is buffered, giving up at the deadline. */
  async close(deadlineMs = 5000): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    const deadline = Date.now() + deadlineMs;
    await this.#shipping;
    // One failed attempt ends it: a dashboard that is down does not hold the shutdown for the whole deadline.
    while (this.#buffer.size > 0 && Date.now() < deadline) {
      if ((await this.#shipOne(deadline - Date.now())) === 'retry') break;
    }
    if (this.#buffer.size > 0) {
      this.#log.warn({ records: this.#buffer.size }, 'analytics records not shipped before shutdown: dropped');
      this.#metrics.analyticsDropped('shutdown', this.#buffer.size);
      this.#buffer.discard(this.#buffer.size);
    }
  }

  #flushIfDue(): void {
    if (this.#closed || this.#shipping || this.#buffer.size === 0 || Date.now() < this.#retryAt) return;
    this.#shipping = this.#drain().finally(() => (this.#shipping = undefined));
  }

  /** Ships full batches (and the last partial one) until the buffer is empty or the dashboard is unavailable. */
  async #drain(): Promise<void> {
    while (!this.#closed && this.#buffer.size > 0) {
      if ((await this.#shipOne()) === 'retry') return;
    }
  }

  async #shipOne(timeoutMs?: number): Promise<ShipOutcome> {
    const batch = this.#buffer.peek(this.#options.batch_size);
    let outcome: ShipOutcome;
    try {
      outcome = await (timeoutMs === undefined ? this.#send(batch) : withTimeout(this.#send(batch), timeoutMs));
    } catch (error) {
      if (this.#failures === 0)
        this.#log.warn(
          { err: error instanceof Error ? error.message : String(error), buffered: this.#buffer.size },
          'analytics: the dashboard cannot take records now; retrying with backoff',
        );
      outcome = 'retry';
    }
    if (outcome === 'retry') {
      this.#failures++;
      this.#retryAt = Date.now() + this.#backoffMs();
      return outcome;
    }
    if (this.#failures > 0) this.#log.info({ buffered: this.#buffer.size }, 'analytics: the dashboard takes records again');
    this.#failures = 0;
    this.#retryAt = 0;
    this.#buffer.discard(batch.length);
    if (outcome === 'accepted') this.#metrics.analyticsShipped(batch.length);
    else {
      this.#log.error({ records: batch.length }, 'analytics: the dashboard refused a batch: dropped');
      this.#metrics.analyticsDropped('refused', batch.length);
    }
    return outcome;
  }

  #backoffMs(): number {
    const { retry_initial_ms: initial, retry_max_ms: max } = this.#options;
    const exponential = Math.min(max, initial * 2 ** Math.min(30, Math.max(0, this.#failures - 1)));
    return exponential / 2 + Math.random() * (exponential / 2);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolveIt, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(ms)} ms`)), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolveIt(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
