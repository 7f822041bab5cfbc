import { describe, expect, it } from 'vitest';
import { DefinitionError } from './api-spec.ts';
import { compileStreams } from './streams.ts';

const doc = (streams: Record<string, unknown>): Record<string, unknown> => ({ 'x-gw-streaming': { streams } });
const http = { input: { http_server: { path: '/post' } }, output: { nats: { urls: ['nats://127.0.0.1:4222'], subject: 's' } } };

describe('compileStreams', () => {
  it('answers undefined for a document without x-gw-streaming', () => {
    expect(compileStreams({}, 'a')).toBeUndefined();
  });

  it('compiles streams with Bento defaults and a configuration hash that changes with the configuration', () => {
    const [stream] = compileStreams(doc({ s1: { input: { http_server: {} }, output: { http_server: { stream_path: '/get/stream' } } } }), 'api')!;
    expect(stream!.key).toBe('api/s1');
    expect(stream!.input).toEqual({ http_server: { path: '/post', allowed_verbs: ['POST'] } });
    expect(stream!.output).toEqual({ http_server: { stream_path: '/get/stream', stream_format: 'event_source', max_buffer_bytes: 1048576, max_subscribers: 10000 } });
    const [other] = compileStreams(doc({ s1: { input: { http_server: {} }, output: { http_server: { stream_path: '/get/events' } } } }), 'api')!;
    expect(other!.hash).not.toBe(stream!.hash);
  });

  it.each([
    ['an unknown input component', { s: { input: { kafka: { addresses: ['k:9092'] } }, output: http.output } }, 'x-gw-streaming.streams.s.input: kafka is not a component gw runs (http_server, redis_streams, nats, amqp_0_9)'],
    ['a processor', { s: { ...http, pipeline: { processors: [{ mapping: 'root = this' }] } } }, 'x-gw-streaming.streams.s.pipeline.processors.0: no processor is supported yet'],
    ['a NATS output without urls', { s: { input: http.input, output: { nats: { subject: 's' } } } }, 'x-gw-streaming.streams.s.output'],
    ['a stream id with a slash', { 'a/b': http }, 'x-gw-streaming.streams'],
  ])('refuses %s naming the field', (_what, streams, field) => {
    expect(() => compileStreams(doc(streams), 'api')).toThrow(DefinitionError);
    expect(() => compileStreams(doc(streams), 'api')).toThrow(field);
  });

  it('refuses two streams on one path', () => {
    expect(() => compileStreams(doc({ a: http, b: http }), 'api')).toThrow('x-gw-streaming.streams.b: path /post is already served by stream a');
  });
});
