// Analytics of the organisation: requests, errors and average latency over time for a chosen range and
// resolution, one line per API, key (by alias), tag or endpoint of one chosen API (its tracked endpoints, by
// method and path template), each chart with a table alternative; the totals per group;
// and the request log of keys with detailed logging on. Needs the `analytics` permission: without it the
// dashboard's refusal is shown as a page. Reads only (GET /api/activity/..., /api/logs, the API names).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import {
  activityPath,
  alignSeries,
  DIMENSIONS,
  METRICS,
  RANGES,
  totalsOf,
  windowOf,
  type ActivityEntry,
  type Dimension,
  type Resolution,
} from '../analytics-series.ts';
import { Problem } from '../parts/problem.tsx';
import { RequestLog } from '../parts/request-log.tsx';
import { TimeChart } from '../parts/time-chart.tsx';

const RESOLUTION_LABELS: Record<Resolution, string> = { minute: 'Per minute', hour: 'Per hour', day: 'Per day' };

interface Loaded {
  series: ActivityEntry[];
  totals: ActivityEntry[];
}

export function AnalyticsPage() {
  const [rangeId, setRangeId] = useState('24h');
  const range = RANGES.find((r) => r.id === rangeId) ?? RANGES[1]!;
  const [chosenResolution, setResolution] = useState<Resolution>(range.preferred);
  const resolution = range.resolutions.includes(chosenResolution) ? chosenResolution : range.preferred;
  const [dimension, setDimension] = useState<Dimension>('apis');
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [error, setError] = useState<unknown>();
  const [apiNames, setApiNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [chosenApi, setChosenApi] = useState('');
  // Endpoints are one API's: the chosen one, else the first listed.
  const endpointApi = dimension === 'endpoints' ? chosenApi || ([...apiNames.keys()][0] ?? '') : undefined;

  // The span is fixed when the choices (or Refresh) change, not on every render.
  const span = useMemo(() => windowOf(range, resolution, Date.now()), [rangeId, resolution, version]);

  useEffect(() => {
    call<{ apis: { api_definition: { api_id: string; name: string } }[] }>('GET', '/api/apis?p=-2').then(
      ({ data }) => setApiNames(new Map(data.apis.map((a) => [a.api_definition.api_id, a.api_definition.name]))),
      () => setApiNames(new Map()), // no APIs permission: ids instead of names
    );
  }, []);

  useEffect(() => {
    // An answer to earlier choices that arrives after a later one's is dropped.
    let current = true;
    setLoaded(undefined);
    if (endpointApi === '') {
      setLoaded({ series: [], totals: [] });
      return undefined;
    }
    Promise.all([
      call<{ data: ActivityEntry[] }>('GET', activityPath(dimension, span, resolution, endpointApi)),
      call<{ data: ActivityEntry[] }>('GET', activityPath(dimension, span, undefined, endpointApi)),
    ]).then(
      ([series, totals]) => {
        if (!current) return;
        setError(undefined);
        setLoaded({ series: series.data.data, totals: totals.data.data });
      },
      (e: unknown) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [dimension, span, endpointApi]);

  const aligned = useMemo(() => loaded && alignSeries(loaded.series, dimension, span, resolution, apiNames), [loaded, apiNames]);
  const totals = useMemo(() => (loaded ? totalsOf(loaded.totals, dimension, apiNames) : []), [loaded, apiNames]);
  const { label: dimensionLabel, noun } = DIMENSIONS.find((d) => d.id === dimension)!;

  if (error) return <Problem error={error} what="see the analytics" />;
  const requests = totals.reduce((sum, t) => sum + t.hits, 0);
  const errors = totals.reduce((sum, t) => sum + t.errors, 0);

  return (
    <section aria-labelledby="analytics-title">
      <div class="page-head">
        <h1 id="analytics-title">Analytics</h1>
      </div>
      <form class="filters" aria-label="Analytics range" onSubmit={(e) => e.preventDefault()}>
        <div class="field inline">
          <label for="analytics-range">Range</label>
          <select id="analytics-range" value={rangeId} onChange={(e) => setRangeId(e.currentTarget.value)}>
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="analytics-resolution">Resolution</label>
          <select id="analytics-resolution" value={resolution} onChange={(e) => setResolution(e.currentTarget.value as Resolution)}>
            {range.resolutions.map((r) => (
              <option key={r} value={r}>
                {RESOLUTION_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="analytics-dimension">Per</label>
          <select id="analytics-dimension" value={dimension} onChange={(e) => setDimension(e.currentTarget.value as Dimension)}>
            {DIMENSIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        {endpointApi !== undefined && (
          <div class="field inline">
            <label for="analytics-api">API</label>
            <select id="analytics-api" value={endpointApi} onChange={(e) => setChosenApi(e.currentTarget.value)}>
              {[...apiNames].map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="button" class="secondary" onClick={() => setVersion(version + 1)}>
          Refresh
        </button>
      </form>
      {endpointApi !== undefined && (
        <p class="note" role="note">
          Endpoints are counted when the API tracks them: list them in its track_endpoints (per version).
        </p>
      )}
      <p class="count" role="status">
        {loaded === undefined
          ? 'Loading analytics…'
          : `${requests} ${requests === 1 ? 'request' : 'requests'}, ${errors} ${errors === 1 ? 'error' : 'errors'} from ${new Date(span.from).toLocaleString()} to ${new Date(span.to).toLocaleString()}`}
      </p>
      <div class="charts">
        {METRICS.map((m) => (
          <TimeChart
            key={m.id}
            id={`chart-${m.id}`}
            title={`${m.title} per ${noun}`}
            unit={m.unit}
            times={aligned?.times ?? []}
            groups={aligned?.groups ?? []}
            values={aligned?.values[m.id] ?? []}
            summary={
              aligned === undefined
                ? 'loading'
                : aligned.groups.length === 0
                  ? 'no requests in this range'
                  : `${aligned.groups.length} ${noun} lines over ${aligned.times.length} buckets; the table below holds the values`
            }
          />
        ))}
      </div>
      <table class="list" aria-labelledby="totals-title">
        <caption id="totals-title">Totals per {noun}</caption>
        <thead>
          <tr>
            <th scope="col">{dimensionLabel}</th>
            <th scope="col">Requests</th>
            <th scope="col">Errors</th>
            <th scope="col">Average latency</th>
            <th scope="col">Highest latency</th>
          </tr>
        </thead>
        <tbody>
          {totals.map((t) => (
            <tr key={t.group.id}>
              <th scope="row" title={t.group.id}>
                {t.group.label}
              </th>
              <td>{t.hits}</td>
              <td>{t.errors}</td>
              <td>{t.latency} ms</td>
              <td>{t.maxLatency} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 id="log-title">Request log (keys with detailed logging)</h2>
      <RequestLog span={span} apiNames={apiNames} version={version} />
    </section>
  );
}
