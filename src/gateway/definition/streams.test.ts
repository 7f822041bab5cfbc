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
    expect(stream!.output).toEqual({
      http_server: { stream_path: '/get/stream', stream_format: 'event_source', max_buffer_bytes: 1048576, max_subscribers: 10000 },
    });
    const [other] = compileStreams(doc({ s1: { input: { http_server: {} }, output: { http_server: { stream_path: '/get/events' } } } }), 'api')!;
    expect(other!.hash).not.toBe(stream!.hash);
  });

  it.each([
    [
      'an unknown input component',
      { s: { input: { kafka: { addresses: ['k:9092'] } }, output: http.output } },
      'x-gw-streaming.streams.s.input: kafka is not a component gw runs (http_server, redis_streams, nats, amqp_0_9)',
    ],
    [
      'a Bloblang mapping',
      { s: { ...http, pipeline: { processors: [{ mapping: 'root = this' }] } } },
      'x-gw-streaming.streams.s.pipeline.processors[0]: mapping is not supported: Bloblang has no JavaScript implementation (processors gw runs: noop, jmespath, bounds_check, log)',
    ],
    [
      'an unknown processor',
      { s: { ...http, pipeline: { processors: [{ noop: {} }, { awk: { program: '{}' } }] } } },
      'x-gw-streaming.streams.s.pipeline.processors[1]: awk is not supported (processors gw runs',
    ],
    [
      'two processors in one entry',
      { s: { ...http, pipeline: { processors: [{ noop: {}, log: {} }] } } },
      'x-gw-streaming.streams.s.pipeline.processors[0]: must name exactly one processor',
    ],
    [
      'a jmespath query that does not parse',
      { s: { ...http, pipeline: { processors: [{ jmespath: { query: 'foo[?' } }] } } },
      'x-gw-streaming.streams.s.pipeline.processors[0].jmespath.query: not a JMESPath query',
    ],
    [
      'a jmespath without a query',
      { s: { ...http, pipeline: { processors: [{ jmespath: {} }] } } },
      'x-gw-streaming.streams.s.pipeline.processors[0].jmespath.query',
    ],
    [
      'a log message with Bloblang interpolation',
      { s: { ...http, pipeline: { processors: [{ log: { message: '${! content() }' } }] } } },
      'x-gw-streaming.streams.s.pipeline.processors[0].log.message: interpolation functions',
    ],
    [
      'a bounds_check with a field Bento does not have',
      { s: { ...http, pipeline: { processors: [{ bounds_check: { max_size: 1 } }] } } },
      'x-gw-streaming.streams.s.pipeline.processors[0].bounds_check',
    ],
    ['a NATS output without urls', { s: { input: http.input, output: { nats: { subject: 's' } } } }, 'x-gw-streaming.streams.s.output'],
    ['a stream id with a slash', { 'a/b': http }, 'x-gw-streaming.streams'],
  ])('refuses %s naming the field', (_what, streams, field) => {
    expect(() => compileStreams(doc(streams), 'api')).toThrow(DefinitionError);
    expect(() => compileStreams(doc(streams), 'api')).toThrow(field);
  });

  it('compiles processors with Bento defaults into the stream, the hash changing with them', () => {
    const [plain] = compileStreams(doc({ s: http }), 'api')!;
    expect(plain!.processors).toEqual([]);
    const [processed] = compileStreams(
      doc({ s: { ...http, pipeline: { processors: [{ noop: {} }, { bounds_check: {} }, { log: {} }, { jmespath: { query: 'a' } }] } } }),
      'api',
    )!;
    expect(processed!.processors).toEqual([
      { noop: {} },
      { bounds_check: { max_part_size: 1073741824, min_part_size: 1, max_parts: 100, min_parts: 1 } },
      { log: { level: 'INFO', message: '' } },
      { jmespath: { query: 'a' } },
    ]);
    expect(processed!.hash).not.toBe(plain!.hash);
  });

  it('refuses two streams on one path', () => {
    expect(() => compileStreams(doc({ a: http, b: http }), 'api')).toThrow('x-gw-streaming.streams.b: path /post is already served by stream a');
  });
});
