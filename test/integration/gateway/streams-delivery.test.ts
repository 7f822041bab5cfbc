// Delivery semantics of streams while a broker is down, through a real gateway over real nats-server and
// rabbitmq-server: an HTTP publish to a broker that is down is refused (503) after the bounded wait and counted;
// a NATS input whose output broker is down drops the message, counted (at most once); an AMQP input whose output
// broker is down keeps the message in its queue and delivers it once the output is back (at least once). And the
// gateway still exits at once on SIGTERM: a stream removed while its broker was unreachable left nothing dialing.
import { connect as connectNats, type NatsConnection } from 'nats';
import { connect as connectAmqp } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startNats, startRabbitMq, type RunningBroker } from '../../support/brokers.ts';
import { waitUntil } from '../../support/wait.ts';
import { freePort } from '../../../src/up/ports.ts';
import { keyedStreamsApi } from '../../support/streams-api.ts';

async function dropped(gw: RunningGateway, stream: string, reason: string): Promise<number> {
  const text = (await http(`${gw.controlUrl}/metrics`)).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith('gw_stream_messages_dropped_total{') && l.includes(`stream="${stream}"`) && l.includes(`reason="${reason}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Collects what arrives on a NATS subject. */
async function listen(url: string, subject: string): Promise<{ received: string[]; nc: NatsConnection }> {
  const nc = await connectNats({ servers: url });
  const received: string[] = [];
  const subscription = nc.subscribe(subject);
  void (async () => {
    for await (const m of subscription) received.push(new TextDecoder().decode(m.data));
  })();
  await nc.flush();
  return { received, nc };
}

describe('stream delivery while a broker is down', () => {
  let gw: RunningGateway;
  let source: RunningBroker;
  let target: RunningBroker;
  let rabbit: RunningBroker;
  let key: string;

  beforeAll(async () => {
    [source, target, rabbit, gw] = await Promise.all([startNats(), startNats(), startRabbitMq(), startGateway()]);
    const api = keyedStreamsApi({
      id: 'bridges',
      name: 'bridges',
      listenPath: '/bridges',
      streams: {
        publish: { input: { http_server: { path: '/post' } }, output: { nats: { urls: [target.url], subject: 'published' } } },
        natsBridge: { input: { nats: { urls: [source.url], subject: 'bridge.in' } }, output: { nats: { urls: [target.url], subject: 'bridge.out' } } },
        amqpBridge: {
          input: { amqp_0_9: { urls: [rabbit.url], queue: 'work', queue_declare: { enabled: true, durable: true } } },
          output: { nats: { urls: [target.url], subject: 'work.out' } },
        },
      },
    });
    expect((await gw.admin('POST', '/gw/apis/oas', api)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['bridges']);
  }, 120_000);

  afterAll(async () => {
    await gw?.stop();
  });

  it('refuses an HTTP publish with 503 while the output broker is down, counted; accepts again once it is back', async () => {
    await waitUntil(
      'a first publish to be taken',
      async () => (await gw.call('/bridges/post', { method: 'POST', body: 'up', headers: { authorization: key } })).status === 200,
    );
    await target.down();
    const refused = await gw.call('/bridges/post', { method: 'POST', body: 'while-down', headers: { authorization: key } });
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('the stream output did not take the message');
    expect(await dropped(gw, 'publish', 'publish_refused')).toBeGreaterThanOrEqual(1);
    await target.up();
    await waitUntil(
      'publishing to work again',
      async () => (await gw.call('/bridges/post', { method: 'POST', body: 'back', headers: { authorization: key } })).status === 200,
      { timeoutMs: 30_000 },
    );
  });

  it('serves, and removes on reload, a stream whose broker was never reachable (503 after the bounded wait; the reload does not wait for it)', async () => {
    const nowhere = `nats://127.0.0.1:${await freePort()}`;
    const api = {
      openapi: '3.0.3',
      info: { title: 'unreachable', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { id: 'unreachable', name: 'unreachable', state: { active: true } },
        upstream: { url: 'http://127.0.0.1:9' },
        server: { listenPath: { value: '/unreachable', strip: true } },
      },
      'x-gw-streaming': { streams: { publish: { input: { http_server: { path: '/post' } }, output: { nats: { urls: [nowhere], subject: 'x' } } } } },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', api)).status).toBe(200);
    await gw.reload();
    const refused = await gw.call('/unreachable/post', { method: 'POST', body: 'x' });
    expect(refused.status).toBe(503);
    expect((await gw.admin('DELETE', '/gw/apis/oas/unreachable')).status).toBe(200);
    await gw.reload();
    expect((await gw.call('/unreachable/post', { method: 'POST', body: 'x' })).status).toBe(404);
  });

  it('a NATS input drops (and counts) a message its output broker cannot take; later messages flow again, in order', async () => {
    const out = await listen(target.url, 'bridge.out');
    const input = await connectNats({ servers: source.url });
    await waitUntil('the bridge to carry a first message', async () => {
      input.publish('bridge.in', 'warm');
      await input.flush();
      return out.received.includes('warm');
    });
    await out.nc.close();
    await target.down();
    input.publish('bridge.in', 'lost');
    await input.flush();
    await waitUntil('the drop to be counted', async () => (await dropped(gw, 'natsBridge', 'output_unavailable')) >= 1, { timeoutMs: 30_000 });
    await target.up();
    const after = await listen(target.url, 'bridge.out');
    await waitUntil(
      'the bridge to carry messages again',
      async () => {
        input.publish('bridge.in', 'again');
        await input.flush();
        return after.received.includes('again');
      },
      { timeoutMs: 30_000 },
    );
    const ordered = ['o1', 'o2', 'o3', 'o4', 'o5'];
    for (const m of ordered) input.publish('bridge.in', m);
    await input.flush();
    await waitUntil('the ordered messages', () => ordered.every((m) => after.received.includes(m)));
    expect(after.received.filter((m) => ordered.includes(m))).toEqual(ordered);
    expect(after.received).not.toContain('lost');
    await input.close();
    await after.nc.close();
  });

  it('an AMQP input keeps a message its output broker cannot take in the queue and delivers it once the output is back', async () => {
    const amqp = await connectAmqp(rabbit.url);
    const channel = await amqp.createChannel();
    await channel.assertQueue('work', { durable: true });
    await target.down();
    channel.sendToQueue('work', Buffer.from('kept'));
    // The gateway takes it, fails to publish it, and hands it back: it is redelivered (at least once).
    await waitUntil('the gateway to log the requeue', () => gw.output().includes('stream message requeued'), { timeoutMs: 30_000 });
    await target.up();
    const out = await listen(target.url, 'work.out');
    await waitUntil('the kept message to arrive after the output came back', () => out.received.includes('kept'), { timeoutMs: 30_000 });
    expect(await dropped(gw, 'amqpBridge', 'output_unavailable')).toBe(0);
    await out.nc.close();
    await amqp.close();
  });

  // Last: it stops the file's gateway. (A NATS connection that never connected kept dialing after its stream was
  // removed, and its timers kept the process alive until the test's SIGKILL, 15 s later: exit code null.)
  it('exits 0 on SIGTERM at once, the stream whose broker was never reachable long removed', async () => {
    expect(await gw.stop('SIGTERM')).toBe(0);
  });
});
