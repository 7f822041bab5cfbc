// Between ended spans and the collector: a bounded queue, exported in batches (span_processor_type `batch`: when a
// batch is full or every batch_timeout) or span by span (`simple`), one export at a time. When the queue is full
// — the collector down or slow — a new span is dropped and counted, never queued: memory stays bounded and no
// request waits on tracing. An export that fails counts its spans as dropped too; nothing is retried.
import type { TracingConfig } from './config.ts';
import { encodeExportRequest } from './otlp-encode.ts';
import type { Transport } from './otlp-transport.ts';
import type { AttributeValue, FinishedSpan } from './span.ts';

const SCOPE = 'gw';

export interface ExportCounts {
  /** Spans the collector accepted. */
  exported: number;
  /** Spans lost: the queue was full, or their export failed. */
  dropped: number;
}

export class SpanProcessor {
  readonly counts: ExportCounts = { exported: 0, dropped: 0 };
  readonly #queue: FinishedSpan[] = [];
  readonly #maxQueue: number;
  readonly #batchSize: number;
  readonly #resource: Readonly<Record<string, AttributeValue>>;
  readonly #transport: Transport;
  readonly #timer: NodeJS.Timeout;
  #inFlight: Promise<void> | undefined;
  #onError: (error: Error) => void;

  constructor(config: TracingConfig, resource: Readonly<Record<string, AttributeValue>>, transport: Transport, onError: (error: Error) => void) {
    const simple = config.span_processor_type === 'simple';
    this.#maxQueue = config.span_batch_config.max_queue_size;
    this.#batchSize = simple ? 1 : Math.min(config.span_batch_config.max_export_batch_size, this.#maxQueue);
    this.#resource = resource;
    this.#transport = transport;
    this.#onError = onError;
    this.#timer = setInterval(() => this.#flushSome(), simple ? 200 : config.span_batch_config.batch_timeout * 1000);
    this.#timer.unref();
  }

  /** A span ended: queue it (or drop it when the queue is full). */
  readonly add = (span: FinishedSpan): void => {
    if (this.#queue.length >= this.#maxQueue) {
      this.counts.dropped++;
      return;
    }
    this.#queue.push(span);
    if (this.#queue.length >= this.#batchSize && !this.#inFlight) this.#flushSome();
  };

  /** Exports one batch unless an export is under way; the next batch follows when it ends. */
  #flushSome(): void {
    if (this.#inFlight || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, this.#batchSize);
    this.#inFlight = this.#transport(encodeExportRequest(this.#resource, SCOPE, batch)).then(
      () => {
        this.counts.exported += batch.length;
        this.#settled();
      },
      (error: unknown) => {
        this.counts.dropped += batch.length;
        this.#onError(error instanceof Error ? error : new Error(String(error)));
        this.#settled();
      },
    );
  }

  #settled(): void {
    this.#inFlight = undefined;
    if (this.#queue.length >= this.#batchSize) this.#flushSome();
  }

  /** Exports what is queued (at shutdown), for at most `timeoutMs`, then stops. */
  async shutdown(timeoutMs: number): Promise<void> {
    clearInterval(this.#timer);
    const deadline = Date.now() + timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    try {
      while ((this.#inFlight || this.#queue.length > 0) && Date.now() < deadline) {
        this.#flushSome();
        await Promise.race([this.#inFlight, expired]);
      }
    } finally {
      clearTimeout(timer);
      this.#transport.close();
    }
  }
}
