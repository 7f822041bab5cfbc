import { describe, expect, it } from 'vitest';
import { activityPath, alignSeries, RANGES, totalsOf, windowOf, type ActivityEntry } from './analytics-series.ts';

const entry = (id: Record<string, string>, hits: number, error: number, latency: number): ActivityEntry => ({
  id,
  hits,
  success: hits - error,
  error,
  latency,
  max_latency: latency,
  upstream_latency: 0,
});
const hour = RANGES.find((r) => r.id === '1h')!;

describe('analytics series', () => {
  it('covers the range in whole buckets ending after now', () => {
    const now = Date.UTC(2026, 0, 1, 12, 30, 20);
    expect(windowOf(hour, 'minute', now)).toEqual({ from: Date.UTC(2026, 0, 1, 11, 30), to: Date.UTC(2026, 0, 1, 12, 31) });
    expect(activityPath('keys', { from: 60_000, to: 180_000 }, 'minute')).toBe('/api/activity/keys/60/180?res=minute');
    expect(activityPath('tags', { from: 60_000, to: 180_000 })).toBe('/api/activity/tags/60/180');
    expect(activityPath('endpoints', { from: 60_000, to: 180_000 }, 'minute', 'shop/v 1')).toBe(
      '/api/activity/endpoints/60/180?res=minute&api_id=shop%2Fv%201',
    );
    expect(activityPath('endpoints', { from: 60_000, to: 180_000 }, undefined, 'shop')).toBe('/api/activity/endpoints/60/180?api_id=shop');
  });

  it('puts each group on the full grid: quiet buckets are zero requests and no latency', () => {
    const span = { from: Date.UTC(2026, 0, 1, 12, 0), to: Date.UTC(2026, 0, 1, 12, 3) };
    const at = (minute: number): string => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();
    const aligned = alignSeries(
      [entry({ time: at(0), api_id: 'a' }, 2, 1, 10), entry({ time: at(2), api_id: 'a' }, 1, 0, 30), entry({ time: at(1), api_id: 'b' }, 5, 0, 4)],
      'apis',
      span,
      'minute',
      new Map([['b', 'Shop']]),
    );
    expect(aligned.times).toEqual([span.from / 1000, span.from / 1000 + 60, span.from / 1000 + 120]);
    expect(aligned.groups).toEqual([
      { id: 'b', label: 'Shop' },
      { id: 'a', label: 'a' },
    ]);
    expect(aligned.values.hits).toEqual([
      [0, 5, 0],
      [2, 0, 1],
    ]);
    expect(aligned.values.error).toEqual([
      [0, 0, 0],
      [1, 0, 0],
    ]);
    expect(aligned.values.latency).toEqual([
      [null, 4, null],
      [10, null, 30],
    ]);
  });

  it('names an endpoint by its method and path template', () => {
    const rows = totalsOf([entry({ endpoint: 'GET /items/{id}' }, 4, 1, 3), entry({ endpoint: 'POST /items' }, 1, 0, 9)], 'endpoints', new Map());
    expect(rows.map((r) => [r.group.label, r.hits, r.errors, r.latency])).toEqual([
      ['GET /items/{id}', 4, 1, 3],
      ['POST /items', 1, 0, 9],
    ]);
  });

  it('names keys by alias (else the start of the hash) and orders totals by requests', () => {
    const rows = totalsOf([entry({ key: 'abcdef0123', alias: '' }, 1, 0, 1), entry({ key: 'ffff', alias: 'mobile' }, 3, 1, 2)], 'keys', new Map());
    expect(rows.map((r) => [r.group.label, r.hits, r.errors])).toEqual([
      ['mobile', 3, 1],
      ['key abcdef01…', 1, 0],
    ]);
  });
});
