import { describe, expect, it } from 'vitest';
import { InvalidSpecError } from '../sync/errors.ts';
import { idFor } from '../sync/ids.ts';
import { parseStreamsDocument, streamsDefaultId, streamsSecretRefusals } from './streams.ts';

const where = 'ConfigMap ns/events key streams.json';
const document = (streaming?: unknown): string =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
    'x-gw-api-gateway': { info: { name: 'events' } },
    ...(streaming === undefined ? {} : { 'x-gw-streaming': streaming }),
  });
const refusal = (text: string): string => {
  try {
    parseStreamsDocument(text, where);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSpecError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('GwStreamsApiDefinition translation', () => {
  it('takes an OAS document with x-gw-streaming the gateway can run', () => {
    const streams = {
      s: {
        input: { http_server: { path: '/post' } },
        pipeline: { processors: [{ jmespath: { query: 'order.id' } }] },
        output: { http_server: { stream_path: '/get/stream' } },
      },
    };
    expect(parseStreamsDocument(document({ streams }), where)['x-gw-streaming']).toEqual({ streams });
  });

  it('refuses a document without x-gw-streaming, with a component gw does not run, or with a processor, naming the field', () => {
    expect(refusal(document())).toBe(`${where} must contain the x-gw-streaming section`);
    expect(refusal(document({ streams: { s: { input: { mqtt: {} }, output: { http_server: {} } } } }))).toBe(
      `${where}: x-gw-streaming.streams.s.input: mqtt is not a component gw runs (http_server, redis_streams, nats, amqp_0_9)`,
    );
    expect(
      refusal(
        document({ streams: { s: { input: { http_server: {} }, pipeline: { processors: [{ mapping: 'root = this' }] }, output: { http_server: {} } } } }),
      ),
    ).toBe(
      `${where}: x-gw-streaming.streams.s.pipeline.processors[0]: mapping is not supported: Bloblang has no JavaScript implementation (processors gw runs: noop, jmespath, bounds_check, log)`,
    );
    expect(
      refusal(
        document({ streams: { s: { input: { http_server: {} }, pipeline: { processors: [{ jmespath: { query: 'a.[' } }] }, output: { http_server: {} } } } }),
      ),
    ).toMatch(`${where}: x-gw-streaming.streams.s.pipeline.processors[0].jmespath.query: not a JMESPath query`);
    expect(refusal(JSON.stringify({ openapi: '3.0.3', 'x-gw-streaming': { streams: {} } }))).toBe(`${where} must contain the x-gw-api-gateway section`);
  });

  it('gives a streams API an id no GwOasApiDefinition of the same namespace and name has', () => {
    expect(streamsDefaultId('shop', 'events')).toBe(Buffer.from('streams:shop/events').toString('base64url'));
    expect(streamsDefaultId('shop', 'events')).not.toBe(idFor('shop', 'events'));
  });

  it('has no refusal for certificates by id', () => {
    expect(
      streamsSecretRefusals({
        gwStreams: { configmapRef: { name: 'e', keyName: 'k' } },
        customDomain: { enabled: true, name: 'e.example', certificates: ['org1abc'] },
      }),
    ).toEqual([]);
  });
});
