// The analytics record: what a gateway reports for one proxied request, and the batch it ships to the dashboard
// (POST /system/analytics). Shared by both ends so they cannot disagree. A record never carries the credential:
// `key_hash` is the SHA-256 hex of the key (key-hash.ts), empty for keyless requests. `org_id` is informational
// only: the dashboard files a record under the organisation that owns the API, never under what a record claims.
// Bodies (`request`, `response`) are present only for detailed logging (the key's or the API's
// enable_detailed_recording), cut to the gateway's analytics_config.detailed_body_bytes.
import { z } from 'zod';

export const MAX_RECORD_TAGS = 64;

/** Longest path, alias, version and tag a record carries (the gateway cuts longer ones, the dashboard refuses them). */
export const MAX_RECORD_TEXT = { path: 2048, name: 256 } as const;

const Text = (max: number) => z.string().max(max);

export const AnalyticsRecord = z.object({
  /** Unix milliseconds the request arrived. */
  time: z.int().nonnegative(),
  api_id: Text(256),
  api_version: Text(MAX_RECORD_TEXT.name).default(''),
  org_id: Text(256).default(''),
  key_hash: Text(128).default(''),
  alias: Text(MAX_RECORD_TEXT.name).default(''),
  method: Text(32),
  /** The request path relative to the listen path, without the query. */
  path: Text(MAX_RECORD_TEXT.path),
  /** The track_endpoints entry the request matched (its path template), empty when none. */
  tracked_path: Text(MAX_RECORD_TEXT.path).default(''),
  status: z.int().min(100).max(999),
  /** Whole request, arrival to the response's end, in milliseconds. */
  latency_ms: z.number().nonnegative(),
  /** Dispatch to the upstream's response head, in milliseconds; 0 when the upstream was not called. */
  upstream_latency_ms: z.number().nonnegative().default(0),
  /** The API's tags and the key's (its policies' included). */
  tags: z.array(Text(MAX_RECORD_TEXT.name)).max(MAX_RECORD_TAGS).default([]),
  request: Text(1024 * 1024).optional(),
  response: Text(1024 * 1024).optional(),
});
export type AnalyticsRecord = z.input<typeof AnalyticsRecord>;
export type ParsedAnalyticsRecord = z.output<typeof AnalyticsRecord>;

export const MAX_RECORDS_PER_BATCH = 5000;

/** A batch; each record is checked on its own (one bad record must not cost the others: routes/analytics-ingest.ts). */
export const AnalyticsBatch = z.object({ records: z.array(z.unknown()).max(MAX_RECORDS_PER_BATCH) });
