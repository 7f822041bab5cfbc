// Trace context on the wire: W3C Trace Context (`traceparent`, Tyk's default `tracecontext` propagation) and Zipkin's
// B3 (`b3` single header, or the X-B3-* headers), read from an incoming request and written to an outgoing one.
// Ids are lower-case hex strings (32 digits for a trace, 16 for a span); an all-zero or malformed one is no context
// (the request starts a new trace), as the W3C rules say. Fresh ids come from a pool of random bytes refilled in
// blocks, so a request costs no system call.
import { randomFillSync } from 'node:crypto';

export interface SpanContext {
  readonly traceId: string;
  readonly spanId: string;
  /** The sampled flag: the caller recorded its span and asks the next hop to record too. */
  readonly sampled: boolean;
}

export type Propagation = 'tracecontext' | 'b3';

/** A request's headers as node:http gives them (lower-case names). */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function valid(traceId: string, spanId: string): boolean {
  return TRACE_ID.test(traceId) && SPAN_ID.test(spanId) && traceId !== ZERO_TRACE && spanId !== ZERO_SPAN;
}

/** W3C `traceparent`: version-traceid-parentid-flags; version ff is invalid, a later version may carry more fields. */
export function parseTraceparent(header: string | undefined): SpanContext | undefined {
  if (header === undefined || header.length > 512) return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (!valid(traceId, spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

/** B3: the single `b3` header (traceid-spanid[-sampled[-parent]]) first, else X-B3-TraceId/SpanId/Sampled. A 64-bit trace id is widened. */
export function parseB3(headers: HeaderBag): SpanContext | undefined {
  const combined = single(headers.b3);
  if (combined !== undefined) {
    if (combined.length > 512) return undefined;
    const [traceId = '', spanId = '', sampled] = combined.trim().toLowerCase().split('-');
    return b3Context(traceId, spanId, sampled);
  }
  const traceId = single(headers['x-b3-traceid']);
  const spanId = single(headers['x-b3-spanid']);
  if (traceId === undefined || spanId === undefined) return undefined;
  const flags = single(headers['x-b3-flags']);
  return b3Context(traceId.trim().toLowerCase(), spanId.trim().toLowerCase(), flags === '1' ? 'd' : single(headers['x-b3-sampled']));
}

function b3Context(traceId: string, spanId: string, sampled: string | undefined): SpanContext | undefined {
  const wide = traceId.length === 16 ? `${ZERO_SPAN}${traceId}` : traceId;
  if (!valid(wide, spanId)) return undefined;
  // Absent: the receiver decides (here: as if sampled, the caller having recorded its part).
  return { traceId: wide, spanId, sampled: sampled === undefined || sampled === '1' || sampled === 'd' || sampled === 'true' };
}

/** The incoming context under the configured propagation; undefined: none (or malformed), a new trace starts. */
export function extractContext(propagation: Propagation, headers: HeaderBag): SpanContext | undefined {
  return propagation === 'b3' ? parseB3(headers) : parseTraceparent(single(headers.traceparent));
}

/** Header names the propagation writes: an incoming one is replaced by the gateway's, never passed on beside it. */
export const PROPAGATION_HEADERS: ReadonlySet<string> = new Set([
  'traceparent',
  'tracestate',
  'b3',
  'x-b3-traceid',
  'x-b3-spanid',
  'x-b3-parentspanid',
  'x-b3-sampled',
  'x-b3-flags',
]);

/** The header (name, value) pairs carrying `context` to the next hop. */
export function contextHeaders(propagation: Propagation, context: SpanContext): [string, string][] {
  if (propagation === 'b3') return [['b3', `${context.traceId}-${context.spanId}-${context.sampled ? '1' : '0'}`]];
  return [['traceparent', formatTraceparent(context)]];
}

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

function randomHex(bytes: number): string {
  for (;;) {
    if (offset + bytes > POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    const hex = pool.toString('hex', offset, offset + bytes);
    offset += bytes;
    if (hex !== ZERO_TRACE && hex !== ZERO_SPAN) return hex; // all zeros is the invalid id
  }
}

export function newTraceId(): string {
  return randomHex(16);
}

export function newSpanId(): string {
  return randomHex(8);
}
