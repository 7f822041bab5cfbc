// What the analytics page asks the dashboard and how its answer becomes charts: the ranges and resolutions a user
// can choose (each pair within the dashboard's bucket limit), the query path of a range, and the per-bucket,
// per-group entries of /api/activity/... turned into aligned series (one value per bucket of the whole range, so
// a quiet minute is a zero, not a missing point) and into a table of totals. Pure: no fetching, no DOM.

export type Resolution = 'minute' | 'hour' | 'day';
export type Dimension = 'apis' | 'keys' | 'tags' | 'endpoints';
export type Metric = 'hits' | 'error' | 'latency';

export const RESOLUTION_MS: Record<Resolution, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export interface RangeChoice {
  id: string;
  label: string;
  ms: number;
  /** The resolutions this range may be shown in (at most a few thousand buckets), finest first. */
  resolutions: Resolution[];
  /** The one chosen when the range is. */
  preferred: Resolution;
}

export const RANGES: RangeChoice[] = [
  { id: '1h', label: 'Last hour', ms: 3_600_000, resolutions: ['minute'], preferred: 'minute' },
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000, resolutions: ['minute', 'hour'], preferred: 'hour' },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000, resolutions: ['hour', 'day'], preferred: 'hour' },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000, resolutions: ['hour', 'day'], preferred: 'day' },
];

export const DIMENSIONS: { id: Dimension; label: string; noun: string; field: string }[] = [
  { id: 'apis', label: 'API', noun: 'API', field: 'api_id' },
  { id: 'keys', label: 'Key (alias)', noun: 'key', field: 'key' },
  { id: 'tags', label: 'Tag', noun: 'tag', field: 'tag' },
  // One API's tracked endpoints (`METHOD path-template`): the dashboard counts those its track_endpoints names.
  { id: 'endpoints', label: 'Endpoint of an API', noun: 'endpoint', field: 'endpoint' },
];

export const METRICS: { id: Metric; title: string; unit: string }[] = [
  { id: 'hits', title: 'Requests', unit: 'requests' },
  { id: 'error', title: 'Errors', unit: 'errors' },
  { id: 'latency', title: 'Latency', unit: 'ms (average)' },
];

/** One entry of the dashboard's analytics answer (src/dashboard/routes/analytics.ts). */
export interface ActivityEntry {
  id: Record<string, string | undefined>;
  hits: number;
  success: number;
  error: number;
  latency: number;
  max_latency: number;
  upstream_latency: number;
}

/** A range ending now, as whole buckets of the resolution (Unix ms): the first bucket holds `end - ms`. */
export function windowOf(range: RangeChoice, resolution: Resolution, now: number): { from: number; to: number } {
  const step = RESOLUTION_MS[resolution];
  const from = Math.floor((now - range.ms) / step) * step;
  const to = Math.floor(now / step) * step + step;
  return { from, to };
}

/** The query of a range: per bucket when a resolution is given, only one API's requests when apiId is. */
export function activityPath(dimension: Dimension, window: { from: number; to: number }, resolution?: Resolution, apiId?: string): string {
  const path = `/api/activity/${dimension}/${Math.floor(window.from / 1000)}/${Math.floor(window.to / 1000)}`;
  const query = [...(resolution ? [`res=${resolution}`] : []), ...(apiId ? [`api_id=${encodeURIComponent(apiId)}`] : [])];
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
}

export interface Group {
  id: string;
  label: string;
}

/** A group's readable name: an API's name when known, a key's alias (else the start of its hash), a tag or an
 * endpoint (`GET /items/{id}`) itself. */
export function groupOf(entry: ActivityEntry, dimension: Dimension, apiNames: ReadonlyMap<string, string>): Group {
  const field = DIMENSIONS.find((d) => d.id === dimension)!.field;
  const id = entry.id[field] ?? '';
  if (dimension === 'apis') return { id, label: apiNames.get(id) ?? id };
  if (dimension === 'keys') return { id, label: entry.id.alias || `key ${id.slice(0, 8)}…` };
  return { id, label: id };
}

export interface AlignedSeries {
  /** Bucket starts, Unix seconds (uPlot's x values). */
  times: number[];
  groups: Group[];
  /** Per group (same order), one value per bucket; latency is null in a bucket without requests. */
  values: Record<Metric, (number | null)[][]>;
}

/** The entries of a bucketed answer on the full grid of the window, groups ordered by requests (most first). */
export function alignSeries(
  entries: readonly ActivityEntry[],
  dimension: Dimension,
  window: { from: number; to: number },
  resolution: Resolution,
  apiNames: ReadonlyMap<string, string>,
): AlignedSeries {
  const step = RESOLUTION_MS[resolution];
  const times: number[] = [];
  for (let t = window.from; t < window.to; t += step) times.push(t / 1000);
  const indexOf = (iso: string | undefined): number => (iso === undefined ? -1 : Math.round((Date.parse(iso) - window.from) / step));

  const totals = new Map<string, { group: Group; hits: number }>();
  for (const entry of entries) {
    const group = groupOf(entry, dimension, apiNames);
    const total = totals.get(group.id) ?? { group, hits: 0 };
    total.hits += entry.hits;
    totals.set(group.id, total);
  }
  const groups = [...totals.values()].sort((a, b) => b.hits - a.hits || a.group.label.localeCompare(b.group.label)).map((t) => t.group);
  const position = new Map(groups.map((g, i) => [g.id, i]));
  const values: AlignedSeries['values'] = {
    hits: groups.map(() => times.map(() => 0)),
    error: groups.map(() => times.map(() => 0)),
    latency: groups.map(() => times.map(() => null)),
  };
  for (const entry of entries) {
    const at = indexOf(entry.id.time);
    const g = position.get(groupOf(entry, dimension, apiNames).id);
    if (g === undefined || at < 0 || at >= times.length) continue;
    values.hits[g]![at] = entry.hits;
    values.error[g]![at] = entry.error;
    values.latency[g]![at] = entry.hits > 0 ? entry.latency : null;
  }
  return { times, groups, values };
}

export interface TotalRow {
  group: Group;
  hits: number;
  errors: number;
  latency: number;
  maxLatency: number;
}

/** Totals per group over the range (the table beside the charts), most requests first. */
export function totalsOf(entries: readonly ActivityEntry[], dimension: Dimension, apiNames: ReadonlyMap<string, string>): TotalRow[] {
  return entries
    .map((e) => ({ group: groupOf(e, dimension, apiNames), hits: e.hits, errors: e.error, latency: e.latency, maxLatency: e.max_latency }))
    .sort((a, b) => b.hits - a.hits || a.group.label.localeCompare(b.group.label));
}
