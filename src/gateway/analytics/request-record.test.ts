// Which requests are recorded and how, from Classic and OAS definitions compiled as the gateway compiles them:
// do_not_track and do_not_track_endpoints record nothing; track_endpoints (OAS trackEndpoint) set the tracked path
// template; tags are the API's and the key's; the key is recorded by its SHA-256, never as sent; bodies only with a
// detailed capture. The JSON form the gateway ships is the same record, also after a key or an API changes.
import { describe, expect, it } from 'vitest';
import { AnalyticsRecord, MAX_RECORD_TEXT } from '../../domain/analytics-record.ts';
import { hashKey } from '../../domain/key-hash.ts';
import { compileApi } from '../definition/compile.ts';
import type { ApiSpec } from '../definition/api-spec.ts';
import { BodyCapture } from '../pipeline/body-capture.ts';
import type { ProxyContext } from '../pipeline/contract.ts';
import { requestRecord, requestRecordJson } from './request-record.ts';

const classic = (extra: Record<string, unknown>): ApiSpec =>
  compileApi({
    id: 'shop',
    format: 'classic',
    definition: { name: 'shop', org_id: 'org-1', proxy: { listen_path: '/shop/', target_url: 'http://127.0.0.1:9' }, use_keyless: true, ...extra },
  });

function context(spec: ApiSpec, method: string, relPath: string, extra: Partial<ProxyContext> = {}): ProxyContext {
  const version = [...spec.versions.values()][0]!;
  return { api: { spec }, version, method, relPath, path: `/shop${relPath}`, startedAt: 1_000, ...extra } as unknown as ProxyContext;
}

const keyed = (storageId: string, session: Record<string, unknown>) =>
  ({ key: { ok: true, storageId, effective: { session } } }) as unknown as Partial<ProxyContext>;

describe('requestRecord', () => {
  it('records a keyed request with its hash, alias, tags, latencies and tracked path', () => {
    const spec = classic({ tags: ['team-a'], extended_paths: { track_endpoints: [{ path: '/items/{id}', method: 'GET' }] } });
    const raw = 'org-1secret-key';
    const record = requestRecord(
      context(spec, 'GET', '/items/7', { ...keyed(raw, { alias: 'alice', tags: ['gold', 'team-a'] }), upstreamLatencyMs: 4 }),
      200,
      1_010,
      false,
    );
    expect(record).toEqual({
      time: 1_000,
      api_id: 'shop',
      api_version: 'Default',
      org_id: 'org-1',
      key_hash: hashKey(raw),
      alias: 'alice',
      method: 'GET',
      path: '/items/7',
      tracked_path: '/items/{id}',
      status: 200,
      latency_ms: 10,
      upstream_latency_ms: 4,
      tags: ['team-a', 'gold'],
    });
    expect(JSON.stringify(record)).not.toContain(raw);
    // A gateway that hashes keys holds the hash as the storage id already.
    expect(requestRecord(context(spec, 'GET', '/items/7', keyed(hashKey(raw), {})), 200, 1_010, true)?.key_hash).toBe(hashKey(raw));
    // Another method or path is recorded, untracked.
    expect(requestRecord(context(spec, 'POST', '/items/7'), 201, 1_001, true)).toMatchObject({ tracked_path: '', key_hash: '', alias: '', tags: ['team-a'] });
  });

  it('records nothing for do_not_track APIs and do_not_track_endpoints', () => {
    expect(requestRecord(context(classic({ do_not_track: true }), 'GET', '/x'), 200, 1_001, true)).toBeUndefined();
    const spec = classic({
      extended_paths: {
        do_not_track_endpoints: [
          { path: '/health', method: 'GET' },
          { path: '/off', method: 'GET', disabled: true },
        ],
      },
    });
    expect(requestRecord(context(spec, 'GET', '/health'), 200, 1_001, true)).toBeUndefined();
    expect(requestRecord(context(spec, 'POST', '/health'), 200, 1_001, true)).toBeDefined();
    expect(requestRecord(context(spec, 'GET', '/off'), 200, 1_001, true)).toBeDefined();
  });

  it('reads OAS trackEndpoint, doNotTrackEndpoint and trafficLogs', () => {
    const oas = (global: Record<string, unknown>): ApiSpec =>
      compileApi({
        id: 'pets',
        format: 'oas',
        definition: {
          openapi: '3.0.3',
          info: { title: 'pets', version: '1' },
          paths: { '/pets/{id}': { get: { operationId: 'getPet', responses: {} } }, '/health': { get: { operationId: 'health', responses: {} } } },
          'x-gw-api-gateway': {
            info: { name: 'pets', state: { active: true } },
            upstream: { url: 'http://127.0.0.1:9' },
            server: { listenPath: { value: '/pets-api/' } },
            middleware: { global, operations: { getPet: { trackEndpoint: { enabled: true } }, health: { doNotTrackEndpoint: { enabled: true } } } },
          },
        },
      });
    const spec = oas({});
    expect(requestRecord(context(spec, 'GET', '/pets/1'), 200, 1_001, true)?.tracked_path).toBe('/pets/{id}');
    expect(requestRecord(context(spec, 'GET', '/health'), 200, 1_001, true)).toBeUndefined();
    expect(requestRecord(context(oas({ trafficLogs: { enabled: false } }), 'GET', '/pets/1'), 200, 1_001, true)).toBeUndefined();
  });

  it("keeps every field within the record's bounds, so the dashboard never refuses what the gateway made", () => {
    const spec = classic({ tags: Array.from({ length: 70 }, (_, i) => `t${i}`) });
    const record = requestRecord(
      context(spec, 'GET', `/${'p'.repeat(3000)}`, keyed('k', { alias: 'a'.repeat(300), tags: ['x'.repeat(300)] })),
      200,
      1_001,
      true,
    )!;
    expect(record.path).toHaveLength(MAX_RECORD_TEXT.path);
    expect(record.alias).toHaveLength(MAX_RECORD_TEXT.name);
    expect(record.tags).toHaveLength(64);
    expect(AnalyticsRecord.safeParse(record).success).toBe(true);
  });

  it("carries the captured bodies, cut at the capture's limit", () => {
    const capture = new BodyCapture(4);
    capture.request(Buffer.from('ab\u0000cdef'));
    capture.response('xy');
    capture.response('zw-more');
    const record = requestRecord(context(classic({}), 'POST', '/x', { capture }), 200, 1_001, true);
    expect(record).toMatchObject({ request: 'ab\uFFFDc', response: 'xyzw' });
  });

  it('ships the same record as JSON text, per key and API version, keyless and keyed, with bodies; never stale', () => {
    const spec = classic({ tags: ['team-a'], extended_paths: { track_endpoints: [{ path: '/items/{id}', method: 'GET' }] } });
    // keysHashed is the gateway's setting, the same for every request of one gateway: fresh keys for each value.
    for (const hashed of [true, false]) {
      const alice = keyed('k-alice', { alias: 'alice', tags: ['gold'] });
      const capture = new BodyCapture(16);
      capture.request(Buffer.from('{"a":"\u0001"}'));
      const cases: ProxyContext[] = [
        context(spec, 'GET', '/items/7', { ...alice, upstreamLatencyMs: 2.5 }),
        context(spec, 'POST', '/items/"quoted"\\', alice),
        context(spec, 'GET', '/items/8'),
        context(spec, 'PUT', '/x', { capture }),
        context(classic({}), 'GET', '/items/7', alice), // the same key, another API
        context(spec, 'GET', '/items/9', keyed('k-bob', { alias: 'bob', tags: [] })),
        context(spec, 'GET', '/items/9', keyed('k-alice', { alias: 'alice renamed', tags: [] })), // the key changed: a new object
        context(spec, 'GET', '/items/7', alice),
      ];
      for (const ctx of cases) {
        const text = requestRecordJson(ctx, 200, 1_009, hashed)!;
        expect(JSON.parse(text), text).toEqual(requestRecord(ctx, 200, 1_009, hashed));
      }
    }
    expect(requestRecordJson(context(classic({ do_not_track: true }), 'GET', '/x'), 200, 1_001, true)).toBeUndefined();
  });
});
