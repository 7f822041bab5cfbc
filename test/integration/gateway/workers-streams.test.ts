// Streams on a gateway of 2 worker threads, fed by a NATS queue group (real nats-server): one worker consumes it
// and every message reaches the subscribers of both workers, in order; and an HTTP publish taken by either worker
// reaches every subscriber too. 16 SSE subscribers, each on its own connection, which the kernel spreads over the
// workers (SO_REUSEPORT).
import { connect as connectNats } from 'nats';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startNats, type RunningBroker } from '../../support/brokers.ts';
import { subscribeSse, type SseClient } from '../../support/stream-clients.ts';
import { keyedStreamsApi } from '../../support/streams-api.ts';
import { waitUntil } from '../../support/wait.ts';

const SUBSCRIBERS = 16;
const MESSAGES = 20;

describe('streams on 2 workers', () => {
  let gw: RunningGateway;
  let nats: RunningBroker;
  let key: string;
  const subscribeAll = (path: string): Promise<SseClient[]> =>
    Promise.all(Array.from({ length: SUBSCRIBERS }, () => subscribeSse(`${gw.url}${path}`, { authorization: key })));
  const everyoneGot = (clients: SseClient[], expected: string[]): Promise<boolean> =>
    waitUntil(
      () => `every subscriber to receive ${expected.length} messages (got ${clients.map((c) => c.messages.length).join(' ')})`,
      () => clients.every((c) => c.messages.filter((m) => m !== 'probe').length >= expected.length),
      { timeoutMs: 10_000 },
    );

  beforeAll(async () => {
    nats = await startNats();
    gw = await startGateway({}, { env: { GW_GATEWAY_WORKERS: '2' } });
    const api = keyedStreamsApi({
      id: 'live',
      name: 'live',
      listenPath: '/live',
      streams: {
        queued: {
          input: { nats: { urls: [nats.url], subject: 'orders', queue: 'gw' } },
          output: { http_server: { stream_path: '/queued/stream' } },
        },
        posted: { input: { http_server: { path: '/post' } }, output: { http_server: { stream_path: '/posted/stream' } } },
      },
    });
    expect((await gw.admin('POST', '/gw/apis/oas', api)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['live']);
    await waitUntil('the gateway to say it runs 2 workers', () => gw.output().includes('"workers":2'));
  });

  it('a queue group is consumed once and every message reaches the subscribers of every worker, in order', async () => {
    const clients = await subscribeAll('/live/queued/stream');
    expect(new Set(clients.map((c) => c.status))).toEqual(new Set([200]));
    const nc = await connectNats({ servers: nats.url });
    const sent = Array.from({ length: MESSAGES }, (_, i) => `order-${i}`);
    // The gateway's consumer joins the group as its stream starts: publish until the first message gets through.
    await waitUntil('the gateway to consume the queue group', async () => {
      nc.publish('orders', 'probe');
      await nc.flush();
      return clients.every((c) => c.messages.includes('probe'));
    });
    for (const message of sent) nc.publish('orders', message);
    await nc.flush();
    await everyoneGot(clients, sent);
    for (const client of clients) expect(client.messages.filter((m) => m !== 'probe')).toEqual(sent);
    await nc.close();
    for (const client of clients) client.close();
  });

  it('an HTTP publish taken by either worker reaches every subscriber', async () => {
    const clients = await subscribeAll('/live/posted/stream');
    const sent = Array.from({ length: MESSAGES }, (_, i) => `posted-${i}`);
    for (const message of sent) {
      // Each on a connection of its own: the publishes land on both workers.
      const response = await request(`${gw.url}/live/post`, { method: 'POST', body: message, headers: { authorization: key }, reset: true });
      await response.body.dump();
      expect(response.statusCode).toBe(200);
    }
    await everyoneGot(clients, sent);
    for (const client of clients) expect(client.messages).toEqual(sent);
    for (const client of clients) client.close();
  });
});
