// GwStreamsApiDefinition in licensed mode, every part real: the operator in pro mode syncs it into a dashboard (on a
// real PostgreSQL) as an OAS API carrying x-gw-streaming, and a SecurityPolicy granting it by kind; a gateway fed by
// the dashboard serves the stream over a real Redis to a key made in the dashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { streamsDefaultId } from '../../../src/operator/translate/streams.ts';
import { installCrds } from '../../support/crds.ts';
import { ALL_WRITE, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startGateway } from '../../support/gateway.ts';
import { useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { startPostgres } from '../../support/postgres.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { subscribeSse } from '../../support/stream-clients.ts';
import { keyedStreamsApi } from '../../support/streams-api.ts';
import { waitUntil } from '../../support/wait.ts';

describe('licensed mode: GwStreamsApiDefinition through the dashboard', () => {
  const ns = useNamespace('prostreams');
  let dashboard: RunningDashboard;
  let org: TestOrg;
  let redis: RunningRedis;

  beforeAll(async () => {
    await installCrds();
    redis = await startRedis();
    const postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('dashboard'), allow_explicit_policy_id: true });
    org = await createOrg(dashboard, 'Streams');
    expect((await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true })).status).toBe(200);
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  it('lands in the dashboard as an OAS API with its streams, granted by a policy, and a dashboard key subscribes and publishes on the gateway', async () => {
    const system = await org.user(ALL_WRITE, { system: true });
    const gw = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
    });
    await startOperator({ gateway: gw, namespace: ns.name, env: { GW_MODE: 'pro', GW_URL: dashboard.url, GW_AUTH: system, GW_ORG: org.id } });
    const redisUrl = `redis://127.0.0.1:${redis.port}`;
    const document = keyedStreamsApi({
      name: 'ticks',
      listenPath: '/ticks',
      streams: {
        publish: { input: { http_server: { path: '/post' } }, output: { redis_streams: { url: redisUrl, stream: 'ticks' } } },
        subscribe: { input: { redis_streams: { url: redisUrl, streams: ['ticks'] } }, output: { http_server: { stream_path: '/get/stream' } } },
      },
    });
    await apply(
      ns.name,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ticks' }, data: { 'streams.json': JSON.stringify(document) } },
      manifest('GwStreamsApiDefinition', 'ticks', { gwStreams: { configmapRef: { name: 'ticks', keyName: 'streams.json' } } }),
      manifest('SecurityPolicy', 'tickers', { name: 'tickers', state: 'active', access_rights_array: [{ name: 'ticks', kind: 'GwStreamsApiDefinition' }] }),
    );
    await waitFor('gwstreamsapidefinition', ns.name, 'ticks', synced);
    await waitFor('securitypolicy', ns.name, 'tickers', synced);

    const id = streamsDefaultId(ns.name, 'ticks');
    const stored = await org.call('GET', `/api/apis/oas/${id}`);
    expect(stored.status).toBe(200);
    expect(stored.json()).toMatchObject({ 'x-gw-api-gateway': { info: { id, orgId: org.id } }, 'x-gw-streaming': { streams: { publish: {}, subscribe: {} } } });

    const created = await org.call('POST', '/api/keys', { apply_policies: [idFor(ns.name, 'tickers')], org_id: org.id });
    expect(created.status).toBe(200);
    const key = created.json<{ key: string }>().key;
    await expect
      .poll(async () => await subscribeSse(`${gw.url}/ticks/get/stream`, { authorization: key }).then((c) => (c.close(), c.status)), { timeout: 15_000 })
      .toBe(200);
    const sse = await subscribeSse(`${gw.url}/ticks/get/stream`, { authorization: key });
    await waitUntil('the SSE subscription to start', () => sse.comments.includes('subscribed'));
    await waitUntil('a tick through the dashboard-fed gateway', async () => {
      expect((await gw.call('/ticks/post', { method: 'POST', body: 'tick', headers: { authorization: key } })).status).toBe(200);
      return sse.messages.includes('tick');
    });
    sse.close();
    expect((await subscribeSse(`${gw.url}/ticks/get/stream`)).status).toBe(401);
  });
});
