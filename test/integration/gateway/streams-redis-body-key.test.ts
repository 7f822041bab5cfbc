// Redis Streams' entry field (Bento's body_key, default `body`) through a real gateway process and a real
// redis-server: a published message is written under `body` (what a Bento consumer reads), an entry a Bento
// producer wrote under `body` reaches subscribers, an explicit body_key is used both ways, and an entry written by
// an older gw (field `message`) still arrives when body_key is left out.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { subscribeSse, type SseClient } from '../../support/stream-clients.ts';
import { keyedStreamsApi } from '../../support/streams-api.ts';
import { waitUntil } from '../../support/wait.ts';

describe('Redis Streams body_key', () => {
  let gw: RunningGateway;
  let redis: RunningRedis;
  let direct: Redis;
  let key: string;

  beforeAll(async () => {
    [redis, gw] = await Promise.all([startRedis(), startGateway()]);
    const url = `redis://127.0.0.1:${redis.port}`;
    direct = new Redis(url);
    const api = keyedStreamsApi({
      id: 'shared',
      name: 'shared',
      listenPath: '/shared',
      streams: {
        publish: { input: { http_server: { path: '/post' } }, output: { redis_streams: { url, stream: 'to-bento' } } },
        publishKeyed: { input: { http_server: { path: '/post-keyed' } }, output: { redis_streams: { url, stream: 'to-keyed', body_key: 'payload' } } },
        fromBento: { input: { redis_streams: { url, streams: ['from-bento'] } }, output: { http_server: { stream_path: '/bento/stream' } } },
        fromKeyed: {
          input: { redis_streams: { url, streams: ['from-keyed'], body_key: 'payload' } },
          output: { http_server: { stream_path: '/keyed/stream' } },
        },
      },
    });
    const created = await gw.admin('POST', '/gw/apis/oas', api);
    expect(created.status, created.text).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['shared']);
  }, 120_000);

  afterAll(async () => {
    direct?.disconnect();
    await gw?.stop();
    await redis?.stop();
  });

  async function subscribed(path: string): Promise<SseClient> {
    const client = await subscribeSse(`${gw.url}${path}`, { authorization: key });
    expect(client.status).toBe(200);
    await waitUntil('the SSE subscription to start', () => client.comments.includes('subscribed'));
    return client;
  }

  /** Adds `fields` to `stream` until the subscriber has `expected` (the input starts reading a moment after it). */
  async function deliveredThrough(sse: SseClient, stream: string, fields: string[], expected: string): Promise<void> {
    await waitUntil(
      () => `${expected} at the subscriber (have ${sse.messages.join(',')})`,
      async () => {
        await direct.xadd(stream, '*', ...fields);
        return sse.messages.includes(expected);
      },
    );
  }

  it('writes a published message under `body`, the field a Bento consumer reads', async () => {
    const published = await gw.call('/shared/post', { method: 'POST', body: 'for bento', headers: { authorization: key } });
    expect(published.status, published.text).toBe(200);
    const entries = await direct.xrange('to-bento', '-', '+');
    expect(entries.map(([, fields]) => fields)).toEqual([['body', 'for bento']]);
  });

  it('delivers an entry a Bento producer wrote under `body`', async () => {
    const sse = await subscribed('/shared/bento/stream');
    await deliveredThrough(sse, 'from-bento', ['body', 'from bento'], 'from bento');
    sse.close();
  });

  it('still delivers an entry an older gw wrote under `message` when body_key is left out', async () => {
    const sse = await subscribed('/shared/bento/stream');
    await deliveredThrough(sse, 'from-bento', ['message', 'from an older gw'], 'from an older gw');
    sse.close();
  });

  it('uses an explicit body_key both ways, and only it', async () => {
    expect((await gw.call('/shared/post-keyed', { method: 'POST', body: 'keyed', headers: { authorization: key } })).status).toBe(200);
    expect((await direct.xrange('to-keyed', '-', '+')).map(([, fields]) => fields)).toEqual([['payload', 'keyed']]);
    const sse = await subscribed('/shared/keyed/stream');
    await deliveredThrough(sse, 'from-keyed', ['payload', 'first keyed'], 'first keyed');
    await direct.xadd('from-keyed', '*', 'body', 'not the key');
    await direct.xadd('from-keyed', '*', 'payload', 'second keyed');
    await waitUntil(
      () => `the second keyed entry (have ${sse.messages.join(',')})`,
      () => sse.messages.includes('second keyed'),
    );
    expect(sse.messages.filter((m) => m !== 'first keyed')).toEqual(['second keyed']);
    sse.close();
  });
});
