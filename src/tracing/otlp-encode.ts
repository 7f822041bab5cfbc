// OTLP's ExportTraceServiceRequest in protobuf (opentelemetry/proto/collector/trace/v1/trace_service.proto and
// trace/v1/trace.proto), written by hand: the few messages and fields an export needs, each nested message encoded
// in place in one growing buffer and length-prefixed. Field numbers are the .proto's; the encoding runs once per batch, off
// the request path.
import type { FinishedSpan, AttributeValue } from './span.ts';

const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;

function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v > 127; v = Math.floor(v / 128)) size++;
  return size;
}

/**
 * One growing buffer: fields are written in place; a nested message is written after a one-byte length slot,
 * moved up when its length needs more bytes (rare: most attributes are short).
 */
class ProtoWriter {
  #buf = Buffer.allocUnsafe(64 * 1024);
  #pos = 0;

  #ensure(bytes: number): void {
    if (this.#pos + bytes <= this.#buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#pos + bytes));
    this.#buf.copy(grown, 0, 0, this.#pos);
    this.#buf = grown;
  }

  #varint(value: number): void {
    this.#ensure(10);
    let v = value;
    while (v > 127) {
      this.#buf[this.#pos++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.#buf[this.#pos++] = v;
  }

  #tag(field: number, wire: number): void {
    this.#varint(field * 8 + wire);
  }

  uint(field: number, value: number): this {
    this.#tag(field, VARINT);
    this.#varint(value);
    return this;
  }

  double(field: number, value: number): this {
    this.#tag(field, FIXED64);
    this.#ensure(8);
    this.#pos = this.#buf.writeDoubleLE(value, this.#pos);
    return this;
  }

  /** A fixed64 of nanoseconds given as milliseconds (a double: sub-microsecond precision is not kept). */
  fixed64Ns(field: number, ms: number): this {
    this.#tag(field, FIXED64);
    this.#ensure(8);
    const ns = Math.round(ms * 1e6);
    const high = Math.floor(ns / 2 ** 32);
    this.#pos = this.#buf.writeUInt32LE(ns - high * 2 ** 32, this.#pos);
    this.#pos = this.#buf.writeUInt32LE(high, this.#pos);
    return this;
  }

  hex(field: number, value: string): this {
    this.#tag(field, LENGTH);
    this.#varint(value.length / 2);
    this.#ensure(value.length / 2);
    this.#pos += this.#buf.write(value, this.#pos, 'hex');
    return this;
  }

  string(field: number, value: string): this {
    const length = Buffer.byteLength(value);
    this.#tag(field, LENGTH);
    this.#varint(length);
    this.#ensure(length);
    this.#pos += this.#buf.write(value, this.#pos, 'utf8');
    return this;
  }

  message(field: number, write: (writer: this) => void): this {
    this.#tag(field, LENGTH);
    this.#ensure(1);
    const slot = this.#pos++;
    write(this);
    const length = this.#pos - slot - 1;
    const size = varintSize(length);
    if (size > 1) {
      this.#ensure(size - 1);
      this.#buf.copyWithin(slot + size, slot + 1, this.#pos);
      this.#pos += size - 1;
    }
    const end = this.#pos;
    this.#pos = slot;
    this.#varint(length);
    this.#pos = end;
    return this;
  }

  finish(): Buffer {
    return this.#buf.subarray(0, this.#pos);
  }
}

/** AnyValue: string_value 1, bool_value 2, int_value 3, double_value 4. */
function anyValue(writer: ProtoWriter, value: AttributeValue): void {
  if (typeof value === 'string') writer.string(1, value);
  else if (typeof value === 'boolean') writer.uint(2, value ? 1 : 0);
  else if (Number.isSafeInteger(value) && value >= 0) writer.uint(3, value);
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
  writer.hex(1, s.traceId).hex(2, s.spanId);
  if (s.parentSpanId) writer.hex(4, s.parentSpanId);
  writer.string(5, s.name).uint(6, s.kind).fixed64Ns(7, s.startMs).fixed64Ns(8, s.endMs);
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
