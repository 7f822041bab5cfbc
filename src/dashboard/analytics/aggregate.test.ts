// Records -> per-minute aggregate rows: one row per minute, organisation, API, dimension value and status class,
// with counts, errors and latency sums/maxima; keyless requests have no key row; tracked endpoints only.
import { describe, expect, it } from 'vitest';
import { AnalyticsRecord } from '../../domain/analytics-record.ts';
import { aggregate, type FiledRecord } from './aggregate.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0);

function filed(org: string, fields: Partial<AnalyticsRecord> & { time: number; status: number }): FiledRecord {
  const record = AnalyticsRecord.parse({ api_id: 'served', method: 'GET', path: '/x', latency_ms: 10, ...fields });
  return { org_id: org, api_id: 'api-1', record };
}

describe('aggregate', () => {
  it('sums each minute, dimension and status class, and keeps the largest latency', () => {
    const rows = aggregate([
      filed('o', {
        time: T0 + 1000,
        status: 200,
        key_hash: 'k1',
        alias: 'alice',
        tags: ['gold', 'gold'],
        latency_ms: 5,
        upstream_latency_ms: 3,
        tracked_path: '/x',
      }),
      filed('o', { time: T0 + 59_000, status: 201, key_hash: 'k1', alias: 'alice', tags: ['gold'], latency_ms: 20, upstream_latency_ms: 4 }),
      filed('o', { time: T0 + 30_000, status: 503, key_hash: 'k1', latency_ms: 7 }),
      filed('o', { time: T0 + MINUTE, status: 404 }),
    ]);
    const api = rows.filter((r) => r.dimension === 'api');
    expect(api).toEqual([
      {
        org_id: 'o',
        minute: T0,
        api_id: 'api-1',
        dimension: 'api',
        value: '',
        label: '',
        status_class: 2,
        requests: 2,
        errors: 0,
        latency_sum: 25,
        latency_max: 20,
        upstream_latency_sum: 7,
      },
      {
        org_id: 'o',
        minute: T0,
        api_id: 'api-1',
        dimension: 'api',
        value: '',
        label: '',
        status_class: 5,
        requests: 1,
        errors: 1,
        latency_sum: 7,
        latency_max: 7,
        upstream_latency_sum: 0,
      },
      {
        org_id: 'o',
        minute: T0 + MINUTE,
        api_id: 'api-1',
        dimension: 'api',
        value: '',
        label: '',
        status_class: 4,
        requests: 1,
        errors: 1,
        latency_sum: 10,
        latency_max: 10,
        upstream_latency_sum: 0,
      },
    ]);
    const keys = rows.filter((r) => r.dimension === 'key');
    expect(keys.map((r) => [r.value, r.label, r.status_class, r.requests])).toEqual([
      ['k1', 'alice', 2, 2],
      ['k1', '', 5, 1],
    ]);
    // A tag repeated in one record counts once.
    expect(rows.filter((r) => r.dimension === 'tag').map((r) => [r.value, r.requests])).toEqual([['gold', 2]]);
    expect(rows.filter((r) => r.dimension === 'endpoint').map((r) => [r.value, r.requests])).toEqual([['GET /x', 1]]);
  });

  it('keeps organisations and APIs apart, and files 1xx with 2xx', () => {
    const rows = aggregate([filed('a', { time: T0, status: 101 }), filed('b', { time: T0, status: 200 })]);
    expect(rows.map((r) => [r.org_id, r.dimension, r.status_class, r.requests])).toEqual([
      ['a', 'api', 2, 1],
      ['b', 'api', 2, 1],
    ]);
  });
});
