// GwStreamsApiDefinition on the real control plane (issue 16, item 2): applied with kubectl from a ConfigMap, synced
// by a real operator process to a real gateway, which serves the stream over a real Redis (HTTP publish -> Redis
// Streams -> SSE subscriber); a SecurityPolicy grants a key access by kind; drift on the gateway is repaired; the
// resource's deletion waits for the policy and then removes the API; an OperatorContext sends it to another gateway;
// certificates by id only (a Secret reference is refused, naming the field).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { streamsDefaultId } from '../../../src/operator/translate/streams.ts';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { installCrds } from '../../support/crds.ts';
import { SECRET, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator, type RunningOperator } from '../../support/operator.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { apply, events, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { subscribeSse } from '../../support/stream-clients.ts';
import { keyedStreamsApi } from '../../support/streams-api.ts';
import { waitUntil } from '../../support/wait.ts';

describe('GwStreamsApiDefinition', () => {
  const ns = useNamespace('streams');
  let redis: RunningRedis;
  let gw: RunningGateway;
  let op: RunningOperator;
  beforeAll(async () => {
    await installCrds();
    redis = await startRedis();
  });
  beforeEach(async () => {
    gw = await startGateway();
    op = await startOperator({ gateway: gw, namespace: ns.name, env: { GW_DRIFT_PERIOD: '600' } });
  });

  /** A keyed (authorization header) streams API on `listenPath`: POST /post -> Redis stream `stream` -> SSE /get/stream. */
  const document = (listenPath: string, stream: string, streams: Record<string, unknown> = streamsOf(stream)): string =>
    JSON.stringify(keyedStreamsApi({ name: 'events', listenPath, streams }));
  const streamsOf = (stream: string) => ({
    publish: { input: { http_server: { path: '/post' } }, output: { redis_streams: { url: `redis://127.0.0.1:${redis.port}`, stream } } },
    subscribe: {
      input: { redis_streams: { url: `redis://127.0.0.1:${redis.port}`, streams: [stream] } },
      output: { http_server: { stream_path: '/get/stream' } },
    },
  });
  const configMap = (name: string, text: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { 'streams.json': text } });
  const streamsApi = (name: string, extra: Record<string, unknown> = {}) =>
    manifest('GwStreamsApiDefinition', name, { gwStreams: { configmapRef: { name, keyName: 'streams.json' } }, ...extra });

  /** Publishes through `target` until an SSE subscriber (with `key`) receives the message: the whole path works. */
  async function deliversThrough(target: RunningGateway, base: string, key: string, text: string): Promise<void> {
    const sse = await subscribeSse(`${target.url}${base}/get/stream`, { authorization: key });
    try {
      expect(sse.status).toBe(200);
      await waitUntil('the SSE subscription to start', () => sse.comments.includes('subscribed'));
      // The broker input may start reading a moment after the subscriber connected: publish until one arrives.
      await waitUntil(`"${text}" through ${base}`, async () => {
        expect((await target.call(`${base}/post`, { method: 'POST', body: text, headers: { authorization: key } })).status).toBe(200);
        return sse.messages.includes(text);
      });
    } finally {
      sse.close();
    }
  }

  it('syncs from its ConfigMap, shows its columns, serves the stream through Redis, and a SecurityPolicy grants a key to it by kind', async () => {
    await apply(
      ns.name,
      streamsApi('events'),
      manifest('SecurityPolicy', 'readers', { name: 'readers', access_rights_array: [{ name: 'events', kind: 'GwStreamsApiDefinition' }] }),
    );
    const waiting = await waitFor('gwstreamsapidefinition', ns.name, 'events', (r) => ready(r)?.reason === 'WaitingForDependency');
    expect(ready(waiting)?.message).toBe(`ConfigMap ${ns.name}/events (spec.gwStreams.configmapRef) does not exist`);

    await apply(ns.name, configMap('events', document('/events', 'orders')));
    const api = await waitFor('gwstreamsapidefinition', ns.name, 'events', synced);
    const id = streamsDefaultId(ns.name, 'events');
    expect(id).not.toBe(idFor(ns.name, 'events')); // never the id of a GwOasApiDefinition of the same name
    expect(api?.status).toMatchObject({ id, name: 'events', listenPath: '/events', enabled: true });
    expect(api?.metadata.finalizers).toEqual(['finalizers.gw.io/gwstreamsapidefinition']);
    const table = (await kubectl(['get', 'gwstreams', '-n', ns.name, 'events'])).stdout
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/));
    expect(table[0]).toEqual(['NAME', 'DOMAIN', 'LISTENPATH', 'ENABLED', 'SYNCSTATUS', 'READY', 'REASON', 'AGE']);
    expect(table[1]?.slice(0, 4)).toEqual(['events', '/events', 'true', 'Successful']); // no custom domain: an empty column
    expect((await gw.admin('GET', `/gw/apis/oas/${id}`)).json()).toMatchObject({
      'x-gw-api-gateway': { info: { id, orgId: 'test-org' } },
      'x-gw-streaming': { streams: { publish: {} } },
    });

    const policy = await waitFor('securitypolicy', ns.name, 'readers', synced);
    expect(policy?.status?.linked_apis).toEqual([{ name: 'events', namespace: ns.name, kind: 'GwStreamsApiDefinition' }]);
    expect((await gw.admin('GET', `/gw/policies/${idFor(ns.name, 'readers')}`)).json()).toMatchObject({
      access_rights: { [id]: { api_id: id, api_name: 'events' } },
    });
    const linked = await waitFor('gwstreamsapidefinition', ns.name, 'events', (r) => (r?.status?.linkedByPolicies as unknown[] | undefined)?.length === 1);
    expect(linked?.status?.linkedByPolicies).toEqual([{ kind: 'SecurityPolicy', name: 'readers', namespace: ns.name }]);

    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: [idFor(ns.name, 'readers')] })).json<{ key: string }>().key;
    await deliversThrough(gw, '/events', key, 'first order');
    const client = new Redis({ port: redis.port, lazyConnect: true });
    try {
      await client.connect();
      const entries = await client.xrange('orders', '-', '+');
      expect(entries.some(([, fields]) => fields.includes('first order'))).toBe(true); // it went through the broker
    } finally {
      client.disconnect();
    }
    expect((await subscribeSse(`${gw.url}/events/get/stream`)).status).toBe(401);
    expect((await gw.call('/events/post', { method: 'POST', body: 'anonymous' })).status).toBe(401);
    expect((await events(ns.name, 'events')).map((e) => `${e.type}/${e.reason}`)).toEqual(
      expect.arrayContaining(['Warning/WaitingForDependency', 'Normal/Created']),
    );
  });

  it('follows its ConfigMap, repairs drift on the gateway, waits for the policy granting it before it is deleted', async () => {
    await apply(
      ns.name,
      configMap('feed', document('/feed', 'feed')),
      streamsApi('feed'),
      manifest('SecurityPolicy', 'feeders', { name: 'feeders', access_rights_array: [{ name: 'feed', kind: 'GwStreamsApiDefinition' }] }),
    );
    await waitFor('securitypolicy', ns.name, 'feeders', synced);
    const id = streamsDefaultId(ns.name, 'feed');
    const onGateway = async () => (await gw.admin('GET', `/gw/apis/oas/${id}`)).json<{ 'x-gw-api-gateway': { server: { listenPath: { value: string } } } }>();

    await apply(ns.name, configMap('feed', document('/feed-v2', 'feed')));
    await waitFor('gwstreamsapidefinition', ns.name, 'feed', (r) => r?.status?.listenPath === '/feed-v2' && synced(r));
    expect((await onGateway())['x-gw-api-gateway'].server.listenPath.value).toBe('/feed-v2');
    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: [idFor(ns.name, 'feeders')] })).json<{ key: string }>().key;
    await deliversThrough(gw, '/feed-v2', key, 'after the change');

    // By hand on the gateway: deleted, then edited. The operator's change watch puts it back both times.
    const deletedAt = Date.now();
    expect((await gw.admin('DELETE', `/gw/apis/oas/${id}`)).status).toBe(200);
    await expect.poll(async () => (await gw.admin('GET', `/gw/apis/oas/${id}`)).status, { timeout: 15_000, interval: 250 }).toBe(200);
    process.stdout.write(`streams API deleted by hand restored on the gateway after ${Date.now() - deletedAt} ms (periodic scan: 600 s)\n`);
    const edited = await onGateway();
    expect(
      (
        await gw.admin('POST', '/gw/apis/oas', {
          ...edited,
          'x-gw-api-gateway': {
            ...edited['x-gw-api-gateway'],
            server: { ...edited['x-gw-api-gateway'].server, listenPath: { value: '/hijacked', strip: true } },
          },
        })
      ).status,
    ).toBe(200);
    await expect.poll(async () => (await onGateway())['x-gw-api-gateway'].server.listenPath.value, { timeout: 15_000, interval: 250 }).toBe('/feed-v2');
    expect(await op.metric('gw_operator_drift_corrections_total', { kind: 'GwStreamsApiDefinition' })).toBeGreaterThanOrEqual(2);
    await deliversThrough(gw, '/feed-v2', key, 'after the repair');

    await kubectl(['delete', 'gwstreamsapidefinition', '-n', ns.name, 'feed', '--wait=false']);
    const blocked = await waitFor('gwstreamsapidefinition', ns.name, 'feed', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(blocked)?.message).toBe(`not deleted while SecurityPolicy ${ns.name}/feeders still needs it`);
    expect((await gw.admin('GET', `/gw/apis/oas/${id}`)).status).toBe(200);
    await kubectl(['delete', 'securitypolicy', '-n', ns.name, 'feeders', '--timeout=30s']);
    await waitFor('gwstreamsapidefinition', ns.name, 'feed', (r) => r === undefined);
    expect((await gw.admin('GET', `/gw/apis/oas/${id}`)).status).toBe(404);
    await expect
      .poll(async () => (await gw.call('/feed-v2/post', { method: 'POST', body: 'gone', headers: { authorization: key } })).status, { timeout: 5000 })
      .toBe(404);
    expect((await events(ns.name, 'feed')).map((e) => `${e.type}/${e.reason}`)).toEqual(
      expect.arrayContaining(['Normal/Updated', 'Warning/DeletionBlocked', 'Normal/Deleted']),
    );
  });

  it("config/samples/streams applies as written (its Redis moved to the test's) and serves its stream to a key under its policy", async () => {
    const sample = readFileSync(join(REPO_ROOT, 'config', 'samples', 'streams', 'events_streams.yaml'), 'utf8');
    expect(sample).toContain('redis://127.0.0.1:6379');
    await kubectl(['apply', '-n', ns.name, '-f', '-'], { input: sample.replaceAll('redis://127.0.0.1:6379', `redis://127.0.0.1:${redis.port}`) });
    await waitFor('gwstreamsapidefinition', ns.name, 'events', synced);
    const policy = await waitFor('securitypolicy', ns.name, 'events-subscribers', synced);
    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: [policy?.status?.pol_id] })).json<{ key: string }>().key;
    await deliversThrough(gw, '/events', key, '{"order": 1}');
  });

  it('is synced through the OperatorContext it names, which lists it', async () => {
    const other = await startGateway();
    await apply(
      ns.name,
      manifest('OperatorContext', 'east', { env: { mode: 'ce', url: other.controlUrl, auth: SECRET, org: 'east-org' } }),
      configMap('east-events', document('/east', 'east')),
      streamsApi('east-events', { contextRef: { name: 'east' } }),
    );
    await waitFor('gwstreamsapidefinition', ns.name, 'east-events', synced);
    const id = streamsDefaultId(ns.name, 'east-events');
    expect((await other.admin('GET', `/gw/apis/oas/${id}`)).json()).toMatchObject({ 'x-gw-api-gateway': { info: { id, orgId: 'east-org' } } });
    expect((await gw.admin('GET', `/gw/apis/oas/${id}`)).status).toBe(404);
    const context = await waitFor(
      'operatorcontext',
      ns.name,
      'east',
      (r) => (r?.status?.linked_streams_api_definitions as unknown[] | undefined)?.length === 1,
    );
    expect(context?.status?.linked_streams_api_definitions).toEqual([{ name: 'east-events', namespace: ns.name }]);
  });

  it('takes certificates by id only: a Secret reference is refused naming the field, and nothing reaches the gateway', async () => {
    await apply(
      ns.name,
      configMap('secure', document('/secure', 'secure')),
      streamsApi('secure', { customDomain: { enabled: true, name: 'secure.example.com', certificatesRef: ['secure-tls'] } }),
    );
    const refused = await waitFor('gwstreamsapidefinition', ns.name, 'secure', (r) => ready(r)?.reason === 'InvalidSpec');
    expect(ready(refused)?.message).toBe(
      'spec.customDomain.certificatesRef[0]: a GwStreamsApiDefinition takes certificates by id only, not from Secrets: set the certificate id in spec.customDomain.certificates',
    );
    expect(refused?.status?.latestTransaction).toMatchObject({ status: 'Failed' });
    expect((await gw.admin('GET', `/gw/apis/oas/${streamsDefaultId(ns.name, 'secure')}`)).status).toBe(404);
    expect((await events(ns.name, 'secure')).some((e) => e.type === 'Warning' && e.reason === 'InvalidSpec')).toBe(true);

    // By id it is taken, and the id reaches the document.
    await apply(ns.name, streamsApi('secure', { customDomain: { enabled: true, name: 'secure.example.com', certificates: ['org1abc'] } }));
    const fixed = await waitFor('gwstreamsapidefinition', ns.name, 'secure', synced);
    expect(fixed?.status?.domain).toBe('secure.example.com');
    expect((await gw.admin('GET', `/gw/apis/oas/${streamsDefaultId(ns.name, 'secure')}`)).json()).toMatchObject({
      'x-gw-api-gateway': { server: { customDomain: { enabled: true, name: 'secure.example.com', certificates: ['org1abc'] } } },
    });
  });

  it('refuses a document without x-gw-streaming, or with a stream the gateway cannot run, naming the field', async () => {
    const plain = JSON.parse(document('/plain', 'plain')) as Record<string, unknown>;
    delete plain['x-gw-streaming'];
    await apply(ns.name, configMap('odd', JSON.stringify(plain)), streamsApi('odd'));
    const missing = await waitFor('gwstreamsapidefinition', ns.name, 'odd', (r) => ready(r)?.reason === 'InvalidSpec');
    expect(ready(missing)?.message).toBe(`ConfigMap ${ns.name}/odd key streams.json must contain the x-gw-streaming section`);

    await apply(ns.name, configMap('odd', document('/odd', 'odd', { s: { input: { kafka: { addresses: ['k:9092'] } }, output: { http_server: {} } } })));
    const unknown = await waitFor(
      'gwstreamsapidefinition',
      ns.name,
      'odd',
      (r) => ready(r)?.reason === 'InvalidSpec' && ready(r)?.message !== ready(missing)?.message,
    );
    expect(ready(unknown)?.message).toBe(
      `ConfigMap ${ns.name}/odd key streams.json: x-gw-streaming.streams.s.input: kafka is not a component gw runs (http_server, redis_streams, nats, amqp_0_9)`,
    );
  });
});
