// The tracer with a stand-in transport (tracer.ts, span-processor.ts): sampling decisions (AlwaysOn, AlwaysOff,
// TraceIDRatioBased by the trace id's low bits, parent_based), children inheriting the trace, the bounded queue
// dropping (counted) instead of growing while an export hangs, a failed export counted as dropped, and the
// batch's protobuf encoding read back by the test receiver's independent decoder.
import { describe, expect, it } from 'vitest';
import { decodeExport } from '../../test/support/otlp-receiver.ts';
import { TracingConfigSchema, type TracingConfig } from './config.ts';
import { SpanKind } from './span.ts';
import { Tracer } from './tracer.ts';
import type { Transport } from './otlp-transport.ts';

function config(overrides: Record<string, unknown>): TracingConfig {
  return TracingConfigSchema.parse({ enabled: true, ...overrides });
}

/** A transport whose exports are answered by the test: `pending` holds each export's body and its settle functions. */
function heldTransport(): { transport: Transport; bodies: Buffer[]; settle: ((ok: boolean) => void)[] } {
  const bodies: Buffer[] = [];
  const settle: ((ok: boolean) => void)[] = [];
  const send = (body: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      bodies.push(body);
      settle.push((ok) => (ok ? resolve() : reject(new Error('collector down'))));
    });
  return { transport: Object.assign(send, { close: () => undefined }), bodies, settle };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('sampling', () => {
  const sampled = (overrides: Record<string, unknown>, traceparent?: string): boolean => {
    const tracer = new Tracer(config(overrides), { transport: heldTransport().transport });
    return tracer.startServerSpan('GET /', traceparent ? { traceparent } : {}, {}).context.sampled;
  };

  it('AlwaysOn and AlwaysOff, with and without parent_based', () => {
    const sampledParent = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const unsampledParent = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-00`;
    expect(sampled({ sampling: { type: 'AlwaysOn' } }, unsampledParent)).toBe(true);
    expect(sampled({ sampling: { type: 'AlwaysOff' } }, sampledParent)).toBe(false);
    expect(sampled({ sampling: { type: 'AlwaysOff', parent_based: true } }, sampledParent)).toBe(true);
    expect(sampled({ sampling: { type: 'AlwaysOn', parent_based: true } }, unsampledParent)).toBe(false);
  });

  it("TraceIDRatioBased keeps a trace when its id's low 63 bits are below rate·2^63", () => {
    const ratio = { sampling: { type: 'TraceIDRatioBased', rate: 0.5 } };
    const head = '0'.repeat(16);
    // low 8 bytes 0x7fff…fffe >> 1 = 0x3fff…ffff < 2^62: kept; 0x8000…0000 >> 1 = 2^62: not below, dropped.
    expect(sampled(ratio, `00-${head}7ffffffffffffffe-${'b'.repeat(16)}-00`)).toBe(true);
    expect(sampled(ratio, `00-${head}8000000000000000-${'b'.repeat(16)}-01`)).toBe(false);
  });
});

describe('export', () => {
  it('sends ended spans in batches the OTLP decoder reads back: ids, parent, kind, attributes, resource', async () => {
    const held = heldTransport();
    const tracer = new Tracer(config({ resource_name: 'svc', span_batch_config: { max_export_batch_size: 2 } }), { transport: held.transport });
    const server = tracer.startServerSpan('GET /a', {}, { 'http.method': 'GET', ratio: 0.25, ok: true });
    const child = tracer.startChild(server, 'upstream', SpanKind.client, { 'http.status_code': 200 });
    child.fail('boom');
    child.end();
    server.end();
    server.end(); // a second end sends nothing
    await flush();
    expect(held.bodies).toHaveLength(1);
    const spans = decodeExport(held.bodies[0]!);
    expect(spans.map((span) => [span.name, span.kind])).toEqual([
      ['upstream', SpanKind.client],
      ['GET /a', SpanKind.server],
    ]);
    expect(spans[0]!.parentSpanId).toBe(server.context.spanId);
    expect(spans[0]!.traceId).toBe(server.context.traceId);
    expect(spans[0]!.statusCode).toBe(2);
    expect(spans[0]!.attributes).toEqual({ 'http.status_code': 200 });
    expect(spans[1]!.attributes).toEqual({ 'http.method': 'GET', ratio: 0.25, ok: true });
    expect(spans[1]!.resource['service.name']).toBe('svc');
    expect(spans[1]!.endNs >= spans[1]!.startNs).toBe(true);
    held.settle[0]!(true);
    await flush();
    expect(tracer.counts).toEqual({ exported: 2, dropped: 0 });
  });

  it('drops (and counts) spans past max_queue_size while an export hangs; a failed export counts its spans as dropped', async () => {
    const held = heldTransport();
    const tracer = new Tracer(config({ span_batch_config: { max_queue_size: 3, max_export_batch_size: 1 } }), { transport: held.transport });
    const end = (): void => tracer.startSpan('work', SpanKind.internal).end();
    end(); // exported at once (batch of 1), and the export hangs
    for (let i = 0; i < 5; i++) end(); // 3 queued, 2 dropped
    expect(held.bodies).toHaveLength(1);
    expect(tracer.counts.dropped).toBe(2);
    held.settle[0]!(false); // the collector failed: that span is dropped too, the next batch goes
    await flush();
    expect(tracer.counts).toEqual({ exported: 0, dropped: 3 });
    expect(held.bodies).toHaveLength(2);
  });

  it('records nothing for a span that is not sampled', async () => {
    const held = heldTransport();
    const tracer = new Tracer(config({ span_processor_type: 'simple', sampling: { type: 'AlwaysOff' } }), { transport: held.transport });
    const span = tracer.startServerSpan('GET /', {}, {});
    span.setAttribute('x', 1);
    span.end();
    await flush();
    expect(span.recording).toBe(false);
    expect(held.bodies).toEqual([]);
    await tracer.shutdown(10);
  });
});
