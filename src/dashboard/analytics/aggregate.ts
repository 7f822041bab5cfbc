// Analytics records -> per-minute aggregate rows: for each minute, organisation, API and status class (2xx, 3xx,
// 4xx, 5xx; 1xx counts as 2xx), one row per dimension the UI groups by: the API itself (`api`, value ''), the key
// (`key`, value the key hash, label its latest alias; keyless requests have none), each tag (`tag`), and the
// tracked endpoint (`endpoint`, value `METHOD path-template`, only for requests of track_endpoints). A row counts
// requests and errors (status >= 400) and sums total and upstream latency (milliseconds) with the largest total
// latency, so averages and maxima over any range are sums and maxima of rows. Pure: records in, rows out, each key
// once (a batch upserts every row once), in a stable order (concurrent upserts take row locks in the same order).
import type { ParsedAnalyticsRecord } from '../../domain/analytics-record.ts';

export type Dimension = 'api' | 'key' | 'tag' | 'endpoint';

/** What a row counts, for one status class (2 to 5); latencies in milliseconds. */
export interface Counts {
  status_class: number;
  requests: number;
  errors: number;
  latency_sum: number;
  latency_max: number;
  upstream_latency_sum: number;
}

export interface AggregateRow extends Counts {
  org_id: string;
  /** Unix ms of the minute's start. */
  minute: number;
  api_id: string;
  dimension: Dimension;
  value: string;
  label: string;
}

/** A record filed under its organisation and the API's own id (the dashboard resolves both, never the record). */
export interface FiledRecord {
  org_id: string;
  api_id: string;
  record: ParsedAnalyticsRecord;
}

export function aggregate(filed: readonly FiledRecord[]): AggregateRow[] {
  const rows = new Map<string, AggregateRow>();
  for (const { org_id, api_id, record } of filed) {
    const minute = Math.floor(record.time / 60_000) * 60_000;
    const statusClass = Math.max(2, Math.min(5, Math.floor(record.status / 100)));
    const add = (dimension: Dimension, value: string, label: string): void => {
      const key = [org_id, minute, api_id, dimension, value, statusClass].join('\u0000');
      let row = rows.get(key);
      if (!row) {
        row = {
          org_id,
          minute,
          api_id,
          dimension,
          value,
          label,
          status_class: statusClass,
          requests: 0,
          errors: 0,
          latency_sum: 0,
          latency_max: 0,
          upstream_latency_sum: 0,
        };
        rows.set(key, row);
      }
      row.requests++;
      if (record.status >= 400) row.errors++;
      row.latency_sum += record.latency_ms;
      row.latency_max = Math.max(row.latency_max, record.latency_ms);
      row.upstream_latency_sum += record.upstream_latency_ms;
      if (label !== '') row.label = label;
    };
    add('api', '', '');
    if (record.key_hash !== '') add('key', record.key_hash, record.alias);
    for (const tag of new Set(record.tags)) add('tag', tag, '');
    if (record.tracked_path !== '') add('endpoint', `${record.method} ${record.tracked_path}`, '');
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
