// A span as gw records it: started by the tracer (tracer.ts) with its trace context, given attributes and a status,
// and ended once, which hands it to the span processor for export. A span of a trace that is not sampled still has
// ids (the context is passed on, with the sampled flag off) but records nothing.
import type { SpanContext } from './trace-context.ts';

export type AttributeValue = string | number | boolean;

/** OTLP's Span.SpanKind. */
export const SpanKind = { internal: 1, server: 2, client: 3 } as const;
export type SpanKindValue = (typeof SpanKind)[keyof typeof SpanKind];

/** OTLP's Status.StatusCode: 0 unset, 1 ok, 2 error. */
export interface SpanStatus {
  code: 0 | 1 | 2;
  message?: string;
}

/** What the exporter sends: a span that ended. */
export interface FinishedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: SpanKindValue;
  /** Epoch milliseconds, with the monotonic clock's fraction. */
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly status: SpanStatus;
}

export type SpanSink = (span: FinishedSpan) => void;

/** Wall-clock milliseconds with a fraction, from the monotonic clock (spans of one process never go back in time). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export class Span {
  readonly context: SpanContext;
  readonly parentSpanId: string | undefined;
  readonly kind: SpanKindValue;
  name: string;
  readonly attributes: Record<string, AttributeValue>;
  status: SpanStatus = { code: 0 };
  readonly #startMs: number;
  #sink: SpanSink | undefined;

  /** `sink`: where the span goes when it ends; undefined: not sampled, recorded nowhere. */
  constructor(
    name: string,
    kind: SpanKindValue,
    context: SpanContext,
    parentSpanId: string | undefined,
    attributes: Record<string, AttributeValue>,
    sink: SpanSink | undefined,
  ) {
    this.name = name;
    this.kind = kind;
    this.context = context;
    this.parentSpanId = parentSpanId;
    this.attributes = attributes;
    this.#sink = sink;
    this.#startMs = sink ? nowMs() : 0;
  }

  get recording(): boolean {
    return this.#sink !== undefined;
  }

  setAttribute(key: string, value: AttributeValue): void {
    if (this.#sink) this.attributes[key] = value;
  }

  /** A failure: status Error with its message. */
  fail(message: string): void {
    this.status = { code: 2, message };
  }

  /** Ends the span (a second call does nothing). */
  end(): void {
    const sink = this.#sink;
    if (!sink) return;
    this.#sink = undefined;
    sink({
      traceId: this.context.traceId,
      spanId: this.context.spanId,
      parentSpanId: this.parentSpanId,
      name: this.name,
      kind: this.kind,
      startMs: this.#startMs,
      endMs: nowMs(),
      attributes: this.attributes,
      status: this.status,
    });
  }
}
