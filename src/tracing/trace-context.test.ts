// W3C traceparent and B3 parsing and writing (trace-context.ts): valid contexts read, malformed or all-zero ones
// refused (a new trace starts), the sampled flag kept, 64-bit B3 trace ids widened.
import { describe, expect, it } from 'vitest';
import { contextHeaders, extractContext, formatTraceparent, newSpanId, newTraceId, parseB3, parseTraceparent } from './trace-context.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('traceparent', () => {
  it('reads a valid header and writes it back', () => {
    const context = parseTraceparent(`00-${TRACE}-${SPAN}-01`);
    expect(context).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(formatTraceparent(context!)).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
  });

  it('refuses malformed, all-zero and version ff contexts', () => {
    for (const bad of [
      '',
      'garbage',
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.slice(1)}-${SPAN}-01`,
    ])
      expect(parseTraceparent(bad), bad).toBeUndefined();
  });

  it('accepts a later version with more fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-more`)?.traceId).toBe(TRACE);
  });
});

describe('B3', () => {
  it('reads the single header and the X-B3 headers, widening a 64-bit trace id', () => {
    expect(parseB3({ b3: `${TRACE}-${SPAN}-0` })).toEqual({ traceId: TRACE, spanId: SPAN, sampled: false });
    expect(parseB3({ 'x-b3-traceid': 'a3ce929d0e0e4736', 'x-b3-spanid': SPAN, 'x-b3-sampled': '1' })).toEqual({
      traceId: '0000000000000000a3ce929d0e0e4736',
      spanId: SPAN,
      sampled: true,
    });
    expect(parseB3({ 'x-b3-traceid': TRACE })).toBeUndefined();
  });

  it('is what extractContext reads under b3, and what contextHeaders writes', () => {
    expect(extractContext('b3', { b3: `${TRACE}-${SPAN}-1`, traceparent: `00-${'1'.repeat(32)}-${SPAN}-01` })?.traceId).toBe(TRACE);
    expect(contextHeaders('b3', { traceId: TRACE, spanId: SPAN, sampled: true })).toEqual([['b3', `${TRACE}-${SPAN}-1`]]);
    expect(contextHeaders('tracecontext', { traceId: TRACE, spanId: SPAN, sampled: false })).toEqual([['traceparent', `00-${TRACE}-${SPAN}-00`]]);
  });
});

describe('ids', () => {
  it('are random hex of the right length, distinct across many draws (the pool refills)', () => {
    const traces = new Set(Array.from({ length: 1000 }, () => newTraceId()));
    expect(traces.size).toBe(1000);
    for (const id of traces) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(newSpanId()).toMatch(/^[0-9a-f]{16}$/);
  });
});
