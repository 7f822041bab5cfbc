// A stream's processing step (x-gw-streaming pipeline.processors: Bento's jmespath, bounds_check, log, noop) through
// a real gateway process and a real redis-server (started here): a message published over HTTP is processed before
// it reaches Redis and an SSE subscriber, in order; one a processor fails on is refused (422) and counted, never
// written; one bounds_check filters is accepted and not written; a broker input's messages are processed too; the
// log processor logs its line, never the message; a Bloblang mapping is refused naming the field.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { subscribeSse, type SseClient } from '../../support/stream-clients.ts';
import { keyedStreamsApi } from '../../support/streams-api.ts';
import { waitUntil } from '../../support/wait.ts';

const sseOutput = { output: { http_server: { stream_path: '/get/stream' } } };
const summary = { jmespath: { query: '{id: order.id, total: order.total}' } };

async function dropped(gw: RunningGateway, stream: string, reason: string): Promise<number> {
  const text = (await http(`${gw.controlUrl}/metrics`)).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith('gw_stream_messages_dropped_total{') && l.includes(`stream="${stream}"`) && l.includes(`reason="${reason}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('stream processors over a real Redis', () => {
  let gw: RunningGateway;
  let redis: RunningRedis;
  let direct: Redis;
  let key: string;
  let created: Awaited<ReturnType<RunningGateway['admin']>>;

  beforeAll(async () => {
    [redis, gw] = await Promise.all([startRedis(), startGateway()]);
    const url = `redis://127.0.0.1:${redis.port}`;
    direct = new Redis(url);
    const api = keyedStreamsApi({
      id: 'orders',
      name: 'orders',
      listenPath: '/orders',
      streams: {
        publish: {
          input: { http_server: { path: '/post' } },
          pipeline: { processors: [{ log: { message: 'order received' } }, { bounds_check: { max_part_size: 200 } }, summary] },
          output: { redis_streams: { url, stream: 'orders-summary' } },
        },
        subscribe: { input: { redis_streams: { url, streams: ['orders-summary'] } }, ...sseOutput },
        raw: {
          input: { redis_streams: { url, streams: ['orders-raw'] } },
          pipeline: { processors: [{ noop: {} }, { jmespath: { query: 'order.id' } }] },
          output: { http_server: { stream_path: '/raw/stream' } },
        },
      },
    });
    // Asserted by the first test, so that each test fails on its own where processors are refused.
    created = await gw.admin('POST', '/gw/apis/oas', api);
    await gw.reload();
    key = await addKey(gw, ['orders']);
  }, 120_000);

  afterAll(async () => {
    direct?.disconnect();
    await gw?.stop();
  });

  const publish = (body: string) => gw.call('/orders/post', { method: 'POST', body, headers: { authorization: key } });
  const order = (id: number, extra: Record<string, unknown> = {}) => JSON.stringify({ order: { id, total: id * 10, card: '4111-secret', ...extra } });

  async function subscribed(path: string): Promise<SseClient> {
    const client = await subscribeSse(`${gw.url}${path}`, { authorization: key });
    expect(client.status).toBe(200);
    await waitUntil('the SSE subscription to start', () => client.comments.includes('subscribed'));
    return client;
  }

  it('processes published messages with jmespath before Redis and the SSE subscriber, in order', async () => {
    expect(created.status, created.text).toBe(200);
    const sse = await subscribed('/orders/get/stream');
    // The Redis input starts reading a moment after the subscriber connected: a first message proves the path.
    await waitUntil('a first processed message at the subscriber', async () => {
      expect((await publish(order(0))).status).toBe(200);
      return sse.messages.includes('{"id":0,"total":0}');
    });
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    for (const id of ids) expect((await publish(order(id))).status).toBe(200);
    const expected = ids.map((id) => JSON.stringify({ id, total: id * 10 }));
    await waitUntil(
      () => `30 processed messages (have ${sse.messages.length})`,
      () => sse.messages.filter((m) => m !== '{"id":0,"total":0}').length >= 30,
    );
    expect(sse.messages.filter((m) => m !== '{"id":0,"total":0}')).toEqual(expected);

    const entries = await direct.xrange('orders-summary', '-', '+');
    expect(entries.slice(-30).map(([, fields]) => fields[1])).toEqual(expected);
    expect(JSON.stringify(entries)).not.toContain('4111-secret');
    sse.close();
  });

  it('refuses (422, naming the processor) a message jmespath cannot parse, counts it and writes nothing', async () => {
    const before = (await direct.xrange('orders-summary', '-', '+')).length;
    const droppedBefore = await dropped(gw, 'publish', 'processor_error');
    const refused = await publish('plain text, not JSON');
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('pipeline.processors[2] (jmespath): the message is not JSON');
    expect(await dropped(gw, 'publish', 'processor_error')).toBe(droppedBefore + 1);
    // A message published after it is written: once it is there, the refused one provably never was.
    expect((await publish(order(99))).status).toBe(200);
    const entries = (await direct.xrange('orders-summary', '-', '+')).slice(before).map(([, fields]) => fields[1]);
    expect(entries).toEqual(['{"id":99,"total":990}']);
  });

  it('accepts (200) and drops, counted, a message bounds_check filters', async () => {
    const before = (await direct.xrange('orders-summary', '-', '+')).length;
    const filteredBefore = await dropped(gw, 'publish', 'filtered');
    expect((await publish(order(7, { note: 'x'.repeat(300) }))).status).toBe(200);
    expect(await dropped(gw, 'publish', 'filtered')).toBe(filteredBefore + 1);
    expect((await publish(order(8))).status).toBe(200);
    const entries = (await direct.xrange('orders-summary', '-', '+')).slice(before).map(([, fields]) => fields[1]);
    expect(entries).toEqual(['{"id":8,"total":80}']);
  });

  it('the log processor logs its line per message, never the message contents', async () => {
    await waitUntil('the log processor line', () => gw.output().includes('"msg":"order received"'));
    const lines = gw
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"order received"'));
    expect(lines[0]).toContain('"stream":"publish"');
    expect(gw.output()).not.toContain('4111-secret');
  });

  it("processes a broker input's messages too, dropping (counted) one it fails on and keeping the order", async () => {
    const sse = await subscribed('/orders/raw/stream');
    await waitUntil('a first message from orders-raw', async () => {
      await direct.xadd('orders-raw', '*', 'message', order(100));
      return sse.messages.includes('100');
    });
    const droppedBefore = await dropped(gw, 'raw', 'processor_error');
    for (const body of [order(101), 'not json', order(102), order(103)]) await direct.xadd('orders-raw', '*', 'message', body);
    await waitUntil(
      () => `three more messages (have ${sse.messages.join(',')})`,
      () => sse.messages.includes('103'),
    );
    expect(sse.messages.filter((m) => m !== '100')).toEqual(['101', '102', '103']);
    expect(await dropped(gw, 'raw', 'processor_error')).toBe(droppedBefore + 1);
    sse.close();
  });

  it.each([
    [
      'a Bloblang mapping',
      [{ mapping: 'root = this.order' }],
      'x-gw-streaming.streams.s.pipeline.processors[0]: mapping is not supported: Bloblang has no JavaScript implementation',
    ],
    ['an unknown processor', [{ noop: {} }, { awk: { program: '{}' } }], 'x-gw-streaming.streams.s.pipeline.processors[1]: awk is not supported'],
    [
      'a jmespath query that does not parse',
      [{ jmespath: { query: 'order.[' } }],
      'x-gw-streaming.streams.s.pipeline.processors[0].jmespath.query: not a JMESPath query',
    ],
  ])('refuses a streams API with %s (400 naming the field)', async (_what, processors, field) => {
    const api = keyedStreamsApi({
      id: 'bad',
      name: 'bad',
      listenPath: '/bad',
      streams: { s: { input: { http_server: { path: '/post' } }, pipeline: { processors }, ...sseOutput } },
    });
    const refused = await gw.admin('POST', '/gw/apis/oas', api);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(field);
  });
});
