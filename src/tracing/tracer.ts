// The tracer a gw process holds when tracing is enabled (one per gateway worker, operator or dashboard): decides
// sampling, starts spans (server spans continuing an incoming trace context, children of a span, roots), writes
// the context into outgoing headers, and owns the export (span-processor.ts). Sampling as Tyk's `sampling`:
// AlwaysOn, AlwaysOff, TraceIDRatioBased (OpenTelemetry's rule: the trace id's low 63 bits below rate·2^63, so
// every service with the same rate keeps the same traces), optionally parent_based (a caller's decision wins).
import type { TracingConfig } from './config.ts';
import { otlpTransport, type Transport } from './otlp-transport.ts';
import { Span, SpanKind, type AttributeValue, type SpanKindValue } from './span.ts';
import { SpanProcessor, type ExportCounts } from './span-processor.ts';
import { contextHeaders, extractContext, newSpanId, newTraceId, type HeaderBag, type Propagation, type SpanContext } from './trace-context.ts';

export interface TracerOptions {
  /** Extra resource attributes (service.name is resource_name). */
  resource?: Record<string, AttributeValue>;
  /** Told about failed exports (rate-limited by the caller if it logs). */
  onExportError?: (error: Error) => void;
  /** Replaces the OTLP transport (tests of one module). */
  transport?: Transport;
}

export class Tracer {
  readonly propagation: Propagation;
  readonly #processor: SpanProcessor;
  readonly #sample: (traceId: string, parent: SpanContext | undefined) => boolean;

  constructor(config: TracingConfig, options: TracerOptions = {}) {
    this.propagation = config.context_propagation;
    this.#sample = sampler(config.sampling);
    const resource = { 'service.name': config.resource_name, 'telemetry.sdk.name': 'gw', 'telemetry.sdk.language': 'nodejs', ...options.resource };
    this.#processor = new SpanProcessor(config, resource, options.transport ?? otlpTransport(config), options.onExportError ?? (() => undefined));
  }

  get counts(): Readonly<ExportCounts> {
    return this.#processor.counts;
  }

  /** A server span for an incoming request, continuing the trace context its headers carry (if any). */
  startServerSpan(name: string, headers: HeaderBag, attributes: Record<string, AttributeValue>): Span {
    return this.#start(name, SpanKind.server, extractContext(this.propagation, headers), attributes);
  }

  /** A span under `parent` (a child of the same trace, sampled as the parent was). */
  startChild(parent: Span, name: string, kind: SpanKindValue, attributes: Record<string, AttributeValue> = {}): Span {
    const context = { traceId: parent.context.traceId, spanId: newSpanId(), sampled: parent.context.sampled };
    return new Span(name, kind, context, parent.context.spanId, attributes, context.sampled ? this.#processor.add : undefined);
  }

  /** A span starting a trace, or continuing `parent` when given (the operator's reconcile, a dashboard write). */
  startSpan(name: string, kind: SpanKindValue, attributes: Record<string, AttributeValue> = {}, parent?: SpanContext): Span {
    return this.#start(name, kind, parent, attributes);
  }

  /** The headers carrying `span`'s context to the next hop, under the configured propagation. */
  headersFor(span: Span): [string, string][] {
    return contextHeaders(this.propagation, span.context);
  }

  #start(name: string, kind: SpanKindValue, parent: SpanContext | undefined, attributes: Record<string, AttributeValue>): Span {
    const traceId = parent?.traceId ?? newTraceId();
    const sampled = this.#sample(traceId, parent);
    const context = { traceId, spanId: newSpanId(), sampled };
    return new Span(name, kind, context, parent?.spanId, attributes, sampled ? this.#processor.add : undefined);
  }

  /** Exports what is queued, for at most `timeoutMs`. */
  shutdown(timeoutMs = 2000): Promise<void> {
    return this.#processor.shutdown(timeoutMs);
  }
}

function sampler(sampling: TracingConfig['sampling']): (traceId: string, parent: SpanContext | undefined) => boolean {
  const own = sampling.type === 'AlwaysOff' ? () => false : sampling.type === 'AlwaysOn' ? () => true : ratioSampler(sampling.rate);
  if (!sampling.parent_based) return own;
  return (traceId, parent) => (parent ? parent.sampled : own(traceId));
}

/** OpenTelemetry's TraceIdRatioBased: the last 8 bytes of the trace id, shifted right by one, below rate·2^63. */
function ratioSampler(rate: number): (traceId: string) => boolean {
  if (rate >= 1) return () => true;
  if (rate <= 0) return () => false;
  const bound = BigInt(Math.floor(rate * 2 ** 63));
  return (traceId) => BigInt(`0x${traceId.slice(16)}`) >> 1n < bound;
}
