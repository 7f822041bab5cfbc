// OTLP's ExportTraceServiceRequest in protobuf (opentelemetry/proto/collector/trace/v1/trace_service.proto and
// trace/v1/trace.proto), written by hand: the few messages and fields an export needs, each nested message encoded
// into its own buffer and length-prefixed. Field numbers are the .proto's; the encoding runs once per batch, off
// the request path.
import type { FinishedSpan, AttributeValue } from './span.ts';

const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;

class ProtoWriter {
  readonly #parts: Buffer[] = [];
  #length = 0;

  #push(buffer: Buffer): void {
    this.#parts.push(buffer);
    this.#length += buffer.length;
  }

  #varint(value: number): void {
    const bytes: number[] = [];
    let v = value;
    while (v > 127) {
      bytes.push((v % 128) | 128);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    this.#push(Buffer.from(bytes));
  }

  #tag(field: number, wire: number): void {
    this.#varint(field * 8 + wire);
  }

  uint(field: number, value: number): this {
    this.#tag(field, VARINT);
    this.#varint(value);
    return this;
  }

  /** int64 as a varint (non-negative values only: the spans carry status codes and counts). */
  int64(field: number, value: number): this {
    if (value < 0) return this.double(field, value);
    return this.uint(field, value);
  }

  double(field: number, value: number): this {
    this.#tag(field, FIXED64);
    const buffer = Buffer.alloc(8);
    buffer.writeDoubleLE(value);
    this.#push(buffer);
    return this;
  }

  fixed64(field: number, value: bigint): this {
    this.#tag(field, FIXED64);
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(value);
    this.#push(buffer);
    return this;
  }

  bytes(field: number, value: Buffer): this {
    this.#tag(field, LENGTH);
    this.#varint(value.length);
    this.#push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, write: (writer: ProtoWriter) => void): this {
    const nested = new ProtoWriter();
    write(nested);
    return this.bytes(field, nested.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.#parts, this.#length);
  }
}

/** AnyValue: string_value 1, bool_value 2, int_value 3, double_value 4. */
function anyValue(writer: ProtoWriter, value: AttributeValue): void {
  if (typeof value === 'string') writer.string(1, value);
  else if (typeof value === 'boolean') writer.uint(2, value ? 1 : 0);
  else if (Number.isInteger(value) && value >= 0) writer.int64(3, value);
  else writer.double(4, value);
}

/** KeyValue: key 1, value 2. */
function attributes(writer: ProtoWriter, field: number, values: Readonly<Record<string, AttributeValue>>): void {
  for (const key in values) {
    const value = values[key]!;
    writer.message(field, (kv) => kv.string(1, key).message(2, (any) => anyValue(any, value)));
  }
}

/** Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, start 7, end 8, attributes 9, status 15 (message 2, code 3), flags 16. */
function span(writer: ProtoWriter, s: FinishedSpan): void {
  writer.bytes(1, Buffer.from(s.traceId, 'hex')).bytes(2, Buffer.from(s.spanId, 'hex'));
  if (s.parentSpanId) writer.bytes(4, Buffer.from(s.parentSpanId, 'hex'));
  writer.string(5, s.name).uint(6, s.kind).fixed64(7, s.startNs).fixed64(8, s.endNs);
  attributes(writer, 9, s.attributes);
  if (s.status.code !== 0) {
    const status = s.status;
    writer.message(15, (st) => {
      if (status.message) st.string(2, status.message);
      st.uint(3, status.code);
    });
  }
}

/** ExportTraceServiceRequest { resource_spans 1 { resource 1 { attributes 1 }, scope_spans 2 { scope 1 { name 1, version 2 }, spans 2 } } }. */
export function encodeExportRequest(resource: Readonly<Record<string, AttributeValue>>, scope: string, spans: readonly FinishedSpan[]): Buffer {
  return new ProtoWriter()
    .message(1, (resourceSpans) => {
      resourceSpans.message(1, (r) => attributes(r, 1, resource));
      resourceSpans.message(2, (scopeSpans) => {
        scopeSpans.message(1, (s) => s.string(1, scope));
        for (const one of spans) scopeSpans.message(2, (w) => span(w, one));
      });
    })
    .finish();
}
