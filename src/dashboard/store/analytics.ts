// Analytics in the database: per-minute aggregate rows (analytics/aggregate.ts) added into
// dashboard_analytics_minutes (an upsert that sums into the row a gateway or an earlier batch started), the log of
// requests recorded in detail (dashboard_analytics_log), the queries behind the analytics endpoints and the
// retention's deletes. Every read carries the caller's org_id: no query here can see another organisation's rows.
import type { Queryable } from '../../db/database.ts';
import type { AggregateRow, Counts, Dimension, FiledRecord } from '../analytics/aggregate.ts';
import { limitClause, type Page } from '../paging.ts';
import { fromJsonb, iso, jsonb } from '../../db/rows.ts';

const ROWS_PER_STATEMENT = 400;
const AGGREGATE_COLUMNS = [
  'org_id',
  'dimension',
  'minute',
  'api_id',
  'value',
  'status_class',
  'label',
  'requests',
  'errors',
  'latency_sum',
  'latency_max',
  'upstream_latency_sum',
] as const;

export async function addAggregates(tx: Queryable, rows: readonly AggregateRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const base = params.length;
      params.push(
        row.org_id,
        row.dimension,
        new Date(row.minute).toISOString(),
        row.api_id,
        row.value,
        row.status_class,
        row.label,
        row.requests,
        row.errors,
        row.latency_sum,
        row.latency_max,
        row.upstream_latency_sum,
      );
      return `(${AGGREGATE_COLUMNS.map((column, i) => `$${base + i + 1}${column === 'minute' ? '::timestamptz' : ''}`).join(', ')})`;
    });
    const t = 'dashboard_analytics_minutes';
    await tx.query(
      `INSERT INTO ${t} (${AGGREGATE_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
       ON CONFLICT (org_id, dimension, minute, api_id, value, status_class) DO UPDATE SET
         requests = ${t}.requests + EXCLUDED.requests,
         errors = ${t}.errors + EXCLUDED.errors,
         latency_sum = ${t}.latency_sum + EXCLUDED.latency_sum,
         latency_max = GREATEST(${t}.latency_max, EXCLUDED.latency_max),
         upstream_latency_sum = ${t}.upstream_latency_sum + EXCLUDED.upstream_latency_sum,
         label = CASE WHEN EXCLUDED.label <> '' THEN EXCLUDED.label ELSE ${t}.label END`,
      params,
    );
  }
}

const LOG_COLUMNS = [
  'org_id',
  'time',
  'api_id',
  'api_version',
  'key_hash',
  'alias',
  'method',
  'path',
  'tracked_path',
  'status',
  'latency_ms',
  'upstream_latency_ms',
  'tags',
  'request',
  'response',
] as const;
const LOG_ROWS_PER_STATEMENT = 200;

/** Records recorded in detail (those carrying a body) into the request log. */
export async function addLogEntries(tx: Queryable, filed: readonly FiledRecord[]): Promise<void> {
  for (let start = 0; start < filed.length; start += LOG_ROWS_PER_STATEMENT) {
    const params: unknown[] = [];
    const tuples = filed.slice(start, start + LOG_ROWS_PER_STATEMENT).map(({ org_id, api_id, record: r }) => {
      const base = params.length;
      params.push(
        org_id,
        new Date(r.time).toISOString(),
        api_id,
        r.api_version,
        r.key_hash,
        r.alias,
        r.method,
        r.path,
        r.tracked_path,
        r.status,
        r.latency_ms,
        r.upstream_latency_ms,
        jsonb(r.tags),
        r.request ?? '',
        r.response ?? '',
      );
      const cast = (column: string): string => (column === 'time' ? '::timestamptz' : column === 'tags' ? '::jsonb' : '');
      return `(${LOG_COLUMNS.map((column, i) => `$${base + i + 1}${cast(column)}`).join(', ')})`;
    });
    await tx.query(`INSERT INTO dashboard_analytics_log (${LOG_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, params);
  }
}

export type Resolution = 'minute' | 'hour' | 'day' | 'month';

export interface ActivityQuery {
  dimension: Dimension;
  /** Unix ms, inclusive. */
  from: number;
  /** Unix ms, exclusive. */
  to: number;
  /** Buckets of this size; absent: one total per group over the whole range. */
  resolution?: Resolution;
  /** Only these groups (API ids for `api`, key hashes, tags, endpoints). */
  only?: string[];
  /** Only requests of this API (every dimension). */
  apiId?: string;
}

export interface ActivityRow extends Counts {
  /** Unix ms of the bucket's start; absent for totals over the range. */
  bucket?: number;
  /** The group: the API id for `api`, else the key hash, tag or endpoint. */
  group: string;
  label: string;
}

export async function activity(db: Queryable, orgId: string, q: ActivityQuery): Promise<ActivityRow[]> {
  const group = q.dimension === 'api' ? 'api_id' : 'value';
  const params: unknown[] = [orgId, q.dimension, new Date(q.from).toISOString(), new Date(q.to).toISOString()];
  let where = 'org_id = $1 AND dimension = $2 AND minute >= $3::timestamptz AND minute < $4::timestamptz';
  if (q.only !== undefined) {
    params.push(q.only);
    where += ` AND ${group} = ANY($${params.length}::text[])`;
  }
  if (q.apiId !== undefined) {
    params.push(q.apiId);
    where += ` AND api_id = $${params.length}`;
  }
  // Buckets in UTC whatever the server's time zone; the resolution is one of four literals, never client text.
  const bucket = q.resolution ? `extract(epoch FROM date_trunc('${q.resolution}', minute AT TIME ZONE 'UTC')) * 1000` : 'NULL';
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${bucket} AS bucket, ${group} AS grp, max(label) AS label, status_class, sum(requests) AS requests, sum(errors) AS errors,
            sum(latency_sum) AS latency_sum, max(latency_max) AS latency_max, sum(upstream_latency_sum) AS upstream_latency_sum
       FROM dashboard_analytics_minutes WHERE ${where}
      GROUP BY 1, 2, status_class ORDER BY 1, 2, status_class`,
    params,
  );
  return rows.map((row) => ({
    ...(row.bucket === null || row.bucket === undefined ? {} : { bucket: Number(row.bucket) }),
    group: String(row.grp),
    label: typeof row.label === 'string' ? row.label : '',
    status_class: Number(row.status_class),
    requests: Number(row.requests),
    errors: Number(row.errors),
    latency_sum: Number(row.latency_sum),
    latency_max: Number(row.latency_max),
    upstream_latency_sum: Number(row.upstream_latency_sum),
  }));
}

export interface LogQuery {
  from: number;
  to: number;
  apiId?: string;
  keyHash?: string;
}

export interface LogEntry {
  time: string;
  api_id: string;
  api_version: string;
  key_hash: string;
  alias: string;
  method: string;
  path: string;
  tracked_path: string;
  status: number;
  latency_ms: number;
  upstream_latency_ms: number;
  tags: string[];
  request: string;
  response: string;
}

/** The organisation's detailed request log, newest first. */
export async function requestLog(db: Queryable, orgId: string, q: LogQuery, page: Page): Promise<{ items: LogEntry[]; total: number }> {
  const params: unknown[] = [orgId, new Date(q.from).toISOString(), new Date(q.to).toISOString()];
  let where = 'org_id = $1 AND time >= $2::timestamptz AND time < $3::timestamptz';
  if (q.apiId !== undefined) {
    params.push(q.apiId);
    where += ` AND api_id = $${params.length}`;
  }
  if (q.keyHash !== undefined) {
    params.push(q.keyHash);
    where += ` AND key_hash = $${params.length}`;
  }
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM dashboard_analytics_log WHERE ${where}`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${LOG_COLUMNS.filter((c) => c !== 'org_id').join(', ')} FROM dashboard_analytics_log WHERE ${where} ORDER BY time DESC, id DESC${limitClause(page, params)}`,
    params,
  );
  const items = rows.map((row) => ({
    time: iso(row.time),
    api_id: String(row.api_id),
    api_version: String(row.api_version),
    key_hash: String(row.key_hash),
    alias: String(row.alias),
    method: String(row.method),
    path: String(row.path),
    tracked_path: String(row.tracked_path),
    status: Number(row.status),
    latency_ms: Number(row.latency_ms),
    upstream_latency_ms: Number(row.upstream_latency_ms),
    tags: fromJsonb<string[]>(row.tags),
    request: String(row.request),
    response: String(row.response),
  }));
  return { items, total: Number(count[0]?.n ?? 0) };
}

/** Deletes aggregates and log entries older than `before` (Unix ms); how many rows went. */
export async function pruneAnalytics(db: Queryable, before: number): Promise<number> {
  const cutoff = new Date(before).toISOString();
  const minutes = await db.query<{ n: string | number }>(
    'WITH gone AS (DELETE FROM dashboard_analytics_minutes WHERE minute < $1::timestamptz RETURNING 1) SELECT count(*) AS n FROM gone',
    [cutoff],
  );
  const log = await db.query<{ n: string | number }>(
    'WITH gone AS (DELETE FROM dashboard_analytics_log WHERE time < $1::timestamptz RETURNING 1) SELECT count(*) AS n FROM gone',
    [cutoff],
  );
  return Number(minutes[0]?.n ?? 0) + Number(log[0]?.n ?? 0);
}

/** Which of these organisations exist. */
export async function existingOrgs(db: Queryable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.query<{ id: string }>('SELECT id FROM dashboard_orgs WHERE id = ANY($1::text[])', [ids])).map((row) => row.id);
}

/** Every API's id and organisation (of one organisation, or of all, ordered as the node API serves them). */
export async function apiOrgs(db: Queryable, orgId: string | undefined): Promise<{ id: string; org_id: string }[]> {
  return orgId === undefined
    ? db.query<{ id: string; org_id: string }>('SELECT id, org_id FROM dashboard_apis ORDER BY id, created_at, org_id')
    : db.query<{ id: string; org_id: string }>('SELECT id, org_id FROM dashboard_apis WHERE org_id = $1 ORDER BY id', [orgId]);
}
