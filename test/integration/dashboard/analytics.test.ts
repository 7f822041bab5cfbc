// The dashboard's analytics store on both engines (PostgreSQL and embedded PGlite), through its node and org APIs:
// records posted by a node become per-minute aggregates that the query endpoints sum per API, key and tag, over
// buckets of each resolution (UTC), merged with what an earlier batch started in the same minute; per tracked
// endpoint of one API (requests, errors, latency), within the caller's organisation; the detailed request log pages
// newest first; time ranges and resolutions are checked (400 naming the parameter).
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';
import type { ActivityEntry } from '../../../src/dashboard/routes/analytics.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 5, 1, 10, 0); // 1-6-2026 10:00 UTC

describe.each(ENGINES)('dashboard analytics on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let org: TestOrg;
  let reader: string;
  let apiId: string;

  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    org = await createOrg(dashboard);
    reader = await org.user({ analytics: 'read' });
    apiId = (await org.call('POST', '/api/apis', classicApi('a', '/a/'))).json<{ Meta: string }>().Meta;
  });

  const get = async (path: string): Promise<ActivityEntry[]> => {
    const answer = await dashboard.as(reader)('GET', path);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ data: ActivityEntry[] }>().data;
  };

  it('aggregates batches into minutes and answers them per resolution, API, key and tag', async () => {
    const record = (offsetMs: number, status: number, latency: number, extra: Record<string, unknown> = {}) => ({
      time: T0 + offsetMs,
      api_id: apiId,
      method: 'GET',
      path: '/x',
      status,
      latency_ms: latency,
      upstream_latency_ms: latency / 2,
      ...extra,
    });
    const first = await dashboard.node('POST', '/system/analytics', {
      records: [record(1000, 200, 10, { key_hash: 'k1', alias: 'alice', tags: ['gold'] }), record(2000, 502, 30, { key_hash: 'k1' })],
    });
    expect(first.json()).toEqual({ accepted: 2, rejected: 0 });
    // The same minute again (another gateway, a later batch), and the next hour.
    await dashboard.node('POST', '/system/analytics', {
      records: [record(3000, 200, 20, { key_hash: 'k1', alias: 'alice', tags: ['gold'] }), record(HOUR + 5000, 404, 40, { request: 'in', response: 'out' })],
    });

    const day = await get(`/api/usage/1-6-2026/1-6-2026?res=hour`);
    expect(day.map((e) => [e.id.time, e.hits, e.error, e.codes])).toEqual([
      ['2026-06-01T10:00:00.000Z', 3, 1, { '2xx': 2, '5xx': 1 }],
      ['2026-06-01T11:00:00.000Z', 1, 1, { '4xx': 1 }],
    ]);
    expect(day[0]).toMatchObject({ latency: 20, max_latency: 30, upstream_latency: 10 });
    expect((await get(`/api/usage/apis/${apiId}/1-6-2026/1-6-2026?res=day`)).map((e) => [e.id.time, e.hits])).toEqual([['2026-06-01T00:00:00.000Z', 4]]);
    expect((await get(`/api/usage/1-6-2026/1-6-2026?res=month`)).map((e) => [e.id.time, e.hits])).toEqual([['2026-06-01T00:00:00.000Z', 4]]);
    const minutes = await get(`/api/usage/apis/${apiId}/${T0 / 1000}/${(T0 + HOUR) / 1000}?res=minute`);
    expect(minutes.map((e) => [e.id.time, e.hits])).toEqual([['2026-06-01T10:00:00.000Z', 3]]);
    expect(await get(`/api/activity/keys/1-6-2026/1-6-2026`)).toEqual([expect.objectContaining({ id: { key: 'k1', alias: 'alice' }, hits: 3, error: 1 })]);
    expect((await get(`/api/activity/tags/1-6-2026/1-6-2026`)).map((e) => [e.id.tag, e.hits])).toEqual([['gold', 2]]);
    expect(await get(`/api/activity/apis/2-6-2026/2-6-2026`)).toEqual([]);

    const log = await dashboard.as(reader)('GET', `/api/logs?start=${T0 / 1000}&end=${(T0 + 2 * HOUR) / 1000}`);
    expect(log.json()).toEqual({
      data: [expect.objectContaining({ api_id: apiId, status: 404, request: 'in', response: 'out', time: new Date(T0 + HOUR + 5000).toISOString() })],
      pages: 1,
    });
  });

  it("answers per tracked endpoint of one API (requests, errors, latency), only to its organisation's analysts", async () => {
    const T1 = Date.UTC(2026, 6, 1, 9, 0);
    const other = (await org.call('POST', '/api/apis', classicApi('b', '/b/'))).json<{ Meta: string }>().Meta;
    const record = (api: string, offsetMs: number, method: string, tracked: string, status: number, latency: number) => ({
      time: T1 + offsetMs,
      api_id: api,
      method,
      path: '/items/7',
      tracked_path: tracked,
      status,
      latency_ms: latency,
    });
    const posted = await dashboard.node('POST', '/system/analytics', {
      records: [
        record(apiId, 1000, 'GET', '/items/{id}', 200, 10),
        record(apiId, 61_000, 'GET', '/items/{id}', 500, 30),
        record(apiId, 62_000, 'POST', '/items', 201, 5),
        record(apiId, 63_000, 'GET', '', 200, 1), // not a tracked endpoint
        record(other, 2000, 'GET', '/items/{id}', 200, 99),
      ],
    });
    expect(posted.json()).toEqual({ accepted: 5, rejected: 0 });
    const range = `${T1 / 1000}/${(T1 + HOUR) / 1000}`;
    const totals = await get(`/api/activity/endpoints/${range}?api_id=${apiId}`);
    expect(totals.map((e) => [e.id.endpoint, e.hits, e.error, e.latency, e.max_latency])).toEqual([
      ['GET /items/{id}', 2, 1, 20, 30],
      ['POST /items', 1, 0, 5, 5],
    ]);
    const perMinute = await get(`/api/activity/endpoints/${range}?api_id=${apiId}&res=minute`);
    expect(perMinute.filter((e) => e.id.endpoint === 'GET /items/{id}').map((e) => [e.id.time, e.hits])).toEqual([
      ['2026-07-01T09:00:00.000Z', 1],
      ['2026-07-01T09:01:00.000Z', 1],
    ]);
    expect((await get(`/api/activity/endpoints/${range}?api_id=${other}`)).map((e) => [e.id.endpoint, e.hits])).toEqual([['GET /items/{id}', 1]]);

    const stranger = await (await createOrg(dashboard, 'Stranger')).user({ analytics: 'read' });
    const theirs = await dashboard.as(stranger)('GET', `/api/activity/endpoints/${range}?api_id=${apiId}`);
    expect(theirs.json<{ data: unknown[] }>().data).toEqual([]);
    const noPermission = await dashboard.as(await org.user({ apis: 'read' }))('GET', `/api/activity/endpoints/${range}?api_id=${apiId}`);
    expect(noPermission.status).toBe(403);
    expect(noPermission.text).toContain('requires analytics read');
  });

  it('refuses ranges and resolutions it cannot answer, naming the parameter', async () => {
    const refused = async (path: string, field: string): Promise<void> => {
      const answer = await dashboard.as(reader)('GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.json<{ Message: string }>().Message.startsWith(`${field}:`), answer.text).toBe(true);
    };
    await refused('/api/usage/31-2-2026/1-3-2026', 'from');
    await refused('/api/usage/2-6-2026/1-6-2026', 'to');
    await refused('/api/usage/1-1-2020/1-1-2026?res=minute', 'res');
    await refused('/api/usage/1-6-2026/1-6-2026?res=week', 'res');
  });
});
