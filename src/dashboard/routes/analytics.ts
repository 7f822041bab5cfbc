// Analytics of the caller's organisation (permission `analytics`, read), in Tyk Dashboard\'s paths. {from}
// and {to} are days D-M-YYYY, Unix seconds or ISO date-times (analytics/time-range.ts); ?res=minute|hour|day|month
// (default day) sizes the buckets of a series; ?api_id= narrows any of them to one API.
//   GET /api/usage/{from}/{to}                        every API together, per bucket
//   GET /api/usage/apis/{apiId}/{from}/{to}           one API, per bucket
//   GET /api/usage/keys/{keyHash}/{from}/{to}         one key, per bucket
//   GET /api/usage/tags/{tag}/{from}/{to}             one tag, per bucket
//   GET /api/activity/{apis|keys|tags|endpoints}/{from}/{to}   totals per API, key (with its alias), tag or tracked
//                                                     endpoint over the range (with ?res=: per bucket as well)
//   GET /api/activity/keys/aggregate/{keyHashes}/{from}/{to}   the keys (comma-separated), per bucket
//   answer {"data": [{"id": {time?, api_id? | key?, alias? | tag? | endpoint?}, hits, success, error, latency,
//           max_latency, upstream_latency, codes: {"2xx": n, ...}}], "pages": 1}   (latencies in ms, averages)
//   GET /api/logs?start=&end=[&api_id=][&key=][&p=]   the request log of requests recorded in detail, newest first:
//       {"data": [{time, api_id, api_version, key_hash, alias, method, path, tracked_path, status, latency_ms,
//                  upstream_latency_ms, tags, request, response}], "pages": n}  (start defaults to 24 h ago, end to now)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Dimension } from '../analytics/aggregate.ts';
import { parseResolution, parseTimeRange, type TimeRange } from '../analytics/time-range.ts';
import { orgRoute } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { param, query, sendJson } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { activity, requestLog, type ActivityRow } from '../store/analytics.ts';

const GROUP_FIELD: Record<Dimension, string> = { api: 'api_id', key: 'key', tag: 'tag', endpoint: 'endpoint' };

interface Series {
  dimension: Dimension;
  /** Only these groups; undefined: every group. */
  only?: (request: FastifyRequest) => string[];
  /** Always per bucket (usage); otherwise only when ?res= is given. */
  bucketed: boolean;
  /** Every group summed together (usage of the whole organisation). */
  together?: boolean;
}

export function registerAnalyticsRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const serve = (path: string, series: Series): void =>
    orgRoute(app, path, 'analytics', {
      GET: async (request, reply, caller) => {
        const range = parseTimeRange(param(request, 'from'), param(request, 'to'));
        const res = query(request, 'res');
        const resolution = series.bucketed || res !== undefined ? parseResolution(res, range) : undefined;
        const apiId = query(request, 'api_id') || undefined;
        const rows = await activity(deps.db, caller.org.id, {
          dimension: series.dimension,
          ...range,
          ...(resolution ? { resolution } : {}),
          ...(series.only ? { only: series.only(request) } : {}),
          ...(apiId ? { apiId } : {}),
        });
        return sendJson(reply, 200, { data: summarise(rows, series), pages: 1 });
      },
    });

  const one = (name: string) => (request: FastifyRequest) => [param(request, name)];
  serve('/api/usage/:from/:to', { dimension: 'api', bucketed: true, together: true });
  serve('/api/usage/apis/:apiId/:from/:to', { dimension: 'api', bucketed: true, only: one('apiId') });
  serve('/api/usage/keys/:key/:from/:to', { dimension: 'key', bucketed: true, only: one('key') });
  serve('/api/usage/tags/:tag/:from/:to', { dimension: 'tag', bucketed: true, only: one('tag') });
  serve('/api/activity/apis/:from/:to', { dimension: 'api', bucketed: false });
  serve('/api/activity/keys/:from/:to', { dimension: 'key', bucketed: false });
  serve('/api/activity/tags/:from/:to', { dimension: 'tag', bucketed: false });
  serve('/api/activity/endpoints/:from/:to', { dimension: 'endpoint', bucketed: false });
  serve('/api/activity/keys/aggregate/:keys/:from/:to', {
    dimension: 'key',
    bucketed: true,
    only: (request) =>
      param(request, 'keys')
        .split(',')
        .filter((key) => key !== ''),
  });

  orgRoute(app, '/api/logs', 'analytics', {
    GET: async (request, reply, caller) => {
      const now = Date.now();
      const start = query(request, 'start');
      const end = query(request, 'end');
      const range: TimeRange =
        start || end
          ? parseTimeRange(start || String(Math.floor((now - 86_400_000) / 1000)), end || String(Math.ceil(now / 1000) + 1))
          : { from: now - 86_400_000, to: now + 1000 };
      const apiId = query(request, 'api_id') || undefined;
      const keyHash = query(request, 'key') || undefined;
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await requestLog(deps.db, caller.org.id, { ...range, ...(apiId ? { apiId } : {}), ...(keyHash ? { keyHash } : {}) }, page);
      return sendJson(reply, 200, { data: items, pages: pagesOf(total, page) });
    },
  });
}

/** One entry of an analytics answer. */
export interface ActivityEntry {
  id: Record<string, string>;
  hits: number;
  success: number;
  error: number;
  latency: number;
  max_latency: number;
  upstream_latency: number;
  codes: Record<string, number>;
}

/** Rows per status class -> one entry per bucket and group (or per bucket, groups together). */
function summarise(rows: readonly ActivityRow[], series: Series): ActivityEntry[] {
  const entries = new Map<string, ActivityEntry & { latencySum: number; upstreamSum: number }>();
  for (const row of rows) {
    const group = series.together ? '' : row.group;
    const key = `${row.bucket ?? ''}\u0000${group}`;
    let entry = entries.get(key);
    if (!entry) {
      const id: Record<string, string> = {};
      if (row.bucket !== undefined) id.time = new Date(row.bucket).toISOString();
      if (!series.together) id[GROUP_FIELD[series.dimension]] = row.group;
      if (series.dimension === 'key' && !series.together) id.alias = row.label;
      entry = { id, hits: 0, success: 0, error: 0, latency: 0, max_latency: 0, upstream_latency: 0, codes: {}, latencySum: 0, upstreamSum: 0 };
      entries.set(key, entry);
    }
    if (row.label !== '' && entry.id.alias !== undefined) entry.id.alias = row.label;
    entry.hits += row.requests;
    entry.error += row.errors;
    entry.success += row.requests - row.errors;
    entry.latencySum += row.latency_sum;
    entry.upstreamSum += row.upstream_latency_sum;
    entry.max_latency = Math.max(entry.max_latency, row.latency_max);
    const code = `${row.status_class}xx`;
    entry.codes[code] = (entry.codes[code] ?? 0) + row.requests;
  }
  return [...entries.values()].map(({ latencySum, upstreamSum, ...entry }) => ({
    ...entry,
    latency: entry.hits === 0 ? 0 : round(latencySum / entry.hits),
    upstream_latency: entry.hits === 0 ? 0 : round(upstreamSum / entry.hits),
  }));
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
