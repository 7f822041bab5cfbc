// Analytics end to end, every part real: a dashboard on a real PostgreSQL with two organisations, gateways in
// licensed mode fed by it, an echo upstream. Requests through a gateway show up in the dashboard's per-minute
// aggregates (per API, key/alias, tag, tracked endpoint) and, for a key with detailed logging, in the request log;
// another organisation's user sees none of it; do_not_track and do_not_track_endpoints record nothing. While the
// dashboard is down records wait in the gateway's buffer and arrive after its restart; beyond the buffer the
// drop is counted in the gateway's metrics; a gateway shutting down ships what it holds.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startPostgres } from '../../support/postgres.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import type { ActivityEntry } from '../../../src/dashboard/routes/analytics.ts';
import { waitUntil } from '../../support/wait.ts';

type Entry = ActivityEntry;
interface LogEntry {
  api_id: string;
  key_hash: string;
  alias: string;
  method: string;
  path: string;
  status: number;
  tags: string[];
  request: string;
  response: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const seconds = (ms: number): string => String(Math.floor(ms / 1000));

describe('analytics: gateways record, the dashboard aggregates and answers per organisation', () => {
  let upstream: Upstream;
  let dashboard: RunningDashboard;
  let orgA: TestOrg;
  let orgB: TestOrg;
  let readerA: string;
  let readerB: string;
  let shopId: string;
  let quietId: string;
  let spareId: string;
  let alice: string;
  let bob: string;
  const gateways: RunningGateway[] = [];
  let lastMetrics = '';
  const from = seconds(Date.now() - 3_600_000);
  const to = (): string => seconds(Date.now() + 3_600_000);

  const licensed = (analytics: Record<string, unknown> = {}) =>
    startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
      analytics_config: { flush_interval: 100, retry_initial_ms: 100, retry_max_ms: 400, ...analytics },
    }).then((gw) => {
      gateways.push(gw);
      return gw;
    });
  const activity = async (reader: string, what: string, extra = ''): Promise<Entry[]> => {
    const answer = await dashboard.as(reader)('GET', `/api/activity/${what}/${from}/${to()}${extra}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ data: Entry[] }>().data;
  };
  const hitsOf = async (apiId: string): Promise<number> => (await activity(readerA, 'apis')).find((e) => e.id.api_id === apiId)?.hits ?? 0;
  const metric = async (gw: RunningGateway, line: string): Promise<number> => {
    const text = (await http(`${gw.controlUrl}/metrics`)).text;
    lastMetrics = text
      .split('\n')
      .filter((l) => l.startsWith('gw_analytics') || l.startsWith('gw_requests'))
      .join(' | ');
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    return found ? Number(found.slice(line.length + 1)) : 0;
  };
  const serving = (gw: RunningGateway, path: string) => waitUntil(`the gateway to serve ${path}`, async () => (await gw.call(path)).status !== 404);

  beforeAll(async () => {
    upstream = await startUpstream();
    const postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('analytics'), analytics_prune_interval_seconds: 1 });
    orgA = await createOrg(dashboard, 'Team A');
    orgB = await createOrg(dashboard, 'Team B');
    readerA = await orgA.user({ analytics: 'read' });
    readerB = await orgB.user({ analytics: 'read' });
    const created = async (org: TestOrg, definition: Record<string, unknown>): Promise<string> => {
      const answer = await org.call('POST', '/api/apis', definition);
      expect(answer.status, answer.text).toBe(200);
      return answer.json<{ Meta: string }>().Meta;
    };
    const target = (path: string, extra: Record<string, unknown>) =>
      classicApi(path, `/${path}/`, { proxy: { listen_path: `/${path}/`, target_url: upstream.url, strip_listen_path: true }, ...extra });
    shopId = await created(
      orgA,
      target('shop', {
        use_keyless: false,
        use_standard_auth: true,
        auth_configs: { authToken: { auth_header_name: 'Authorization' } },
        tags: ['team-a'],
        extended_paths: { track_endpoints: [{ path: '/items/{id}', method: 'GET' }], do_not_track_endpoints: [{ path: '/health', method: 'GET' }] },
      }),
    );
    quietId = await created(orgA, target('quiet', { do_not_track: true }));
    spareId = await created(orgA, target('spare', {}));
    await created(orgB, target('other', {}));
    const key = async (session: Record<string, unknown>): Promise<string> => {
      const answer = await orgA.call('POST', '/api/keys', { access_rights: { [shopId]: { api_id: shopId, versions: [] } }, ...session });
      expect(answer.status, answer.text).toBe(200);
      return answer.json<{ key: string }>().key;
    };
    alice = await key({ alias: 'alice', tags: ['gold'], enable_detailed_recording: true });
    bob = await key({ alias: 'bob' });
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  it('records each request into the aggregates and the detailed log of its own organisation only', async () => {
    const gw = await licensed();
    await serving(gw, '/spare/');
    for (let i = 0; i < 3; i++) expect((await gw.call(`/shop/items/${i}`, { headers: { authorization: alice } })).status).toBe(200);
    expect((await gw.call('/shop/items', { method: 'POST', headers: { authorization: alice }, body: 'hello-body' })).status).toBe(200);
    expect((await gw.call('/shop/items/7', { headers: { authorization: bob } })).status).toBe(200);
    expect((await gw.call('/shop/status/500', { headers: { authorization: bob } })).status).toBe(500);
    for (let i = 0; i < 2; i++) expect((await gw.call('/shop/health', { headers: { authorization: bob } })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await gw.call('/quiet/anything')).status).toBe(200);

    // 6 requests of shop: the two to /health (do_not_track_endpoints) are not recorded, nor anything of quiet.
    await waitUntil("shop's 6 requests in the aggregates", async () => (await hitsOf(shopId)) === 6);
    const apis = await activity(readerA, 'apis');
    expect(apis.map((e) => e.id.api_id)).not.toContain(quietId);
    expect(apis.find((e) => e.id.api_id === shopId)).toMatchObject({ hits: 6, success: 5, error: 1, codes: { '2xx': 5, '5xx': 1 } });

    const keys = await activity(readerA, 'keys');
    expect(keys.find((e) => e.id.alias === 'alice')).toMatchObject({ id: { key: sha256(alice) }, hits: 4, error: 0 });
    expect(keys.find((e) => e.id.alias === 'bob')).toMatchObject({ id: { key: sha256(bob) }, hits: 2, error: 1 });
    const tags = await activity(readerA, 'tags');
    expect(tags.find((e) => e.id.tag === 'team-a')?.hits).toBe(6);
    expect(tags.find((e) => e.id.tag === 'gold')?.hits).toBe(4);
    expect((await activity(readerA, 'endpoints')).map((e) => [e.id.endpoint, e.hits])).toEqual([['GET /items/{id}', 4]]);

    const series = await dashboard.as(readerA)('GET', `/api/usage/apis/${shopId}/${from}/${to()}?res=minute`);
    expect(series.json<{ data: Entry[] }>().data.reduce((sum, e) => sum + e.hits, 0)).toBe(6);
    const aggregate = await dashboard.as(readerA)('GET', `/api/activity/keys/aggregate/${sha256(alice)},${sha256(bob)}/${from}/${to()}?res=hour`);
    expect(aggregate.status, aggregate.text).toBe(200);
    expect(aggregate.json<{ data: Entry[] }>().data.reduce((sum, e) => sum + e.hits, 0)).toBe(6);

    // The detailed log holds alice's requests (detailed recording on her key), with their bodies; never bob's.
    const log = (await dashboard.as(readerA)('GET', '/api/logs?p=-2')).json<{ data: LogEntry[] }>().data;
    expect(log).toHaveLength(4);
    expect(new Set(log.map((e) => e.alias))).toEqual(new Set(['alice']));
    const posted = log.find((e) => e.method === 'POST')!;
    expect(posted).toMatchObject({ api_id: shopId, key_hash: sha256(alice), path: '/items', status: 200, tags: ['team-a', 'gold'], request: 'hello-body' });
    expect(posted.response).toContain('hello-body'); // the echo upstream's answer
    // Never the credential itself (only the echo upstream's own answer repeats the Authorization header it got).
    const everything = JSON.stringify([apis, keys, tags, log.map(({ response: _echo, ...entry }) => entry)]);
    for (const raw of [alice, bob]) expect(everything).not.toContain(raw);

    // Another organisation sees nothing of it, even when it names the API.
    expect(await activity(readerB, 'apis')).toEqual([]);
    expect(await activity(readerB, 'keys')).toEqual([]);
    expect(await activity(readerB, 'apis', `?api_id=${shopId}`)).toEqual([]);
    expect((await dashboard.as(readerB)('GET', `/api/usage/apis/${shopId}/${from}/${to()}`)).json()).toEqual({ data: [], pages: 1 });
    expect((await dashboard.as(readerB)('GET', '/api/logs?p=-2')).json()).toEqual({ data: [], pages: 1 });
    // Analytics need the analytics permission.
    const denied = await orgA.call('GET', `/api/activity/apis/${from}/${to()}`);
    expect(denied.status).toBe(403);
    expect(denied.json()).toEqual({ Status: 'Error', Message: 'access denied: requires analytics read' });
    expect((await dashboard.as(readerA)('GET', `/api/activity/apis/${from}/nonsense`)).status).toBe(400);
  });

  it('keeps records while the dashboard is down, ships them after its restart, and counts what the buffer cannot hold', async () => {
    const roomy = await licensed();
    const tiny = await licensed({ max_buffered_records: 3 });
    await serving(roomy, '/spare/');
    await serving(tiny, '/spare/');
    const idle = async (): Promise<boolean> =>
      (await metric(roomy, 'gw_analytics_buffered_records')) + (await metric(tiny, 'gw_analytics_buffered_records')) === 0;
    await waitUntil("the probes' records shipped", idle);
    const before = await hitsOf(spareId);

    await dashboard.stop();
    for (let i = 0; i < 5; i++) expect((await roomy.call('/spare/a')).status).toBe(200);
    for (let i = 0; i < 8; i++) expect((await tiny.call('/spare/b')).status).toBe(200);
    await waitUntil(
      () => `5 records waiting in the roomy gateway: ${lastMetrics}`,
      async () => (await metric(roomy, 'gw_analytics_buffered_records')) === 5,
    );
    expect(await metric(tiny, 'gw_analytics_buffered_records')).toBe(3);
    expect(await metric(tiny, 'gw_analytics_records_dropped_total{reason="buffer_full"}')).toBe(5);

    await dashboard.restart();
    await waitUntil('the buffered records after the restart', async () => (await hitsOf(spareId)) === before + 5 + 3);
    await waitUntil('both buffers empty', idle);
    expect(await metric(roomy, 'gw_analytics_records_dropped_total{reason="buffer_full"}')).toBe(0);
    expect(await metric(tiny, 'gw_analytics_records_dropped_total{reason="buffer_full"}')).toBe(5);
  });

  it('ships what it holds when the gateway shuts down gracefully', async () => {
    const gw = await licensed({ flush_interval: 3_600_000, batch_size: 1000 });
    await serving(gw, '/spare/');
    await gw.stop('SIGTERM'); // ships the probes' records
    await gw.restart();
    const before = await hitsOf(spareId);
    for (let i = 0; i < 4; i++) expect((await gw.call('/spare/c')).status).toBe(200);
    expect(await metric(gw, 'gw_analytics_buffered_records')).toBe(4);
    await gw.stop('SIGTERM');
    expect(await hitsOf(spareId)).toBe(before + 4);
  });

  it('files a record under the organisation owning the API, never the one it claims, and applies the retention', async () => {
    const record = (apiId: string, time: number, org: string) => ({ time, api_id: apiId, org_id: org, method: 'GET', path: '/x', status: 200, latency_ms: 1 });
    const now = Date.now();
    const unauthenticated = await dashboard.anonymous('POST', '/system/analytics', { records: [record(spareId, now, orgA.id)] });
    expect(unauthenticated.status).toBe(401);
    // Claims organisation B for A's API: filed under A.
    const claimed = await dashboard.node('POST', '/system/analytics', { records: [record(spareId, now, orgB.id), record('no-such-api', now, orgA.id)] });
    expect(claimed.json()).toEqual({ accepted: 1, rejected: 1 });
    expect(await activity(readerB, 'apis')).toEqual([]);
    // A node bound to organisation B cannot file records for A's API at all.
    expect((await dashboard.node('POST', `/system/analytics?org_id=${orgB.id}`, { records: [record(spareId, now, orgB.id)] })).json()).toEqual({
      accepted: 0,
      rejected: 1,
    });
    // An organisation deleted while its gateway still ships: its records are refused, never a failure retried forever.
    const doomed = await createOrg(dashboard, 'Doomed');
    const doomedApi = (await doomed.call('POST', '/api/apis', classicApi('doomed', '/doomed/'))).json<{ Meta: string }>().Meta;
    expect((await dashboard.node('POST', '/system/analytics', { records: [record(doomedApi, now, doomed.id)] })).json()).toEqual({ accepted: 1, rejected: 0 });
    expect((await dashboard.admin('DELETE', `/admin/organisations/${doomed.id}`)).status).toBe(200);
    expect((await dashboard.node('POST', '/system/analytics', { records: [record(doomedApi, now, doomed.id)] })).json()).toEqual({ accepted: 0, rejected: 1 });
    // A record that is not valid is refused alone, named; the rest of its batch is kept.
    const mixed = await dashboard.node('POST', '/system/analytics', {
      records: [{ ...record(spareId, now, orgA.id), status: 'ok' }, record(spareId, now, orgA.id)],
    });
    expect(mixed.json()).toEqual({ accepted: 1, rejected: 1, problems: [expect.stringMatching(/^records\[0\]\.status: /)] });
    const notABatch = await dashboard.node('POST', '/system/analytics', { records: 'none' });
    expect(notABatch.status).toBe(400);
    expect(notABatch.text).toContain('records');

    // Past analytics_retention_days (30): deleted by the periodic prune; recent ones stay.
    const old = now - 40 * 86_400_000;
    expect((await dashboard.node('POST', '/system/analytics', { records: [record(spareId, old, orgA.id)] })).json()).toEqual({ accepted: 1, rejected: 0 });
    const oldRange = `/api/activity/apis/${seconds(old - 3_600_000)}/${seconds(old + 3_600_000)}`;
    await waitUntil('the old record pruned', async () => (await dashboard.as(readerA)('GET', oldRange)).json<{ data: Entry[] }>().data.length === 0);
    expect(await hitsOf(shopId)).toBe(6);
  });
});
