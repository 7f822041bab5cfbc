// One proxied request -> its analytics record (api/analytics-record.ts), built when the response has been sent
// (the handler's 'finish' listener) from what the pipeline already decided: no lookup, no I/O. Undefined when the
// request must not be recorded: the API has do_not_track, or the endpoint is in do_not_track_endpoints. The key is
// recorded by its SHA-256 (the storage id when the gateway hashes keys; hashed here otherwise), never as sent.
// Bodies only when a detailed capture ran (middleware/detailed-recording.ts).
import { MAX_RECORD_TAGS, MAX_RECORD_TEXT, type AnalyticsRecord } from '../../api/analytics-record.ts';
import { hashKey } from '../../api/key-hash.ts';
import type { ProxyContext } from '../pipeline/contract.ts';
import { endpointRule } from '../pipeline/endpoint-rule.ts';

const NO_TAGS: readonly string[] = [];

/** Within the record's bounds (api/analytics-record.ts), so the dashboard never refuses a record the gateway made. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

/** The API's tags and the key's, once each; the API's own list as it is when there is nothing to add or cut. */
function recordTags(apiTags: string[], keyTags: readonly string[]): string[] {
  if (keyTags.length === 0 && apiTags.length <= MAX_RECORD_TAGS && apiTags.every((tag) => tag.length <= MAX_RECORD_TEXT.name)) return apiTags;
  return [...new Set([...apiTags, ...keyTags])].slice(0, MAX_RECORD_TAGS).map((tag) => clip(tag, MAX_RECORD_TEXT.name));
}

/** A key's hash, once per resolved key (the session cache keeps one object per key until it changes). */
const hashes = new WeakMap<object, string>();
function hashOf(key: { storageId: string }): string {
  let hash = hashes.get(key);
  if (hash === undefined) hashes.set(key, (hash = hashKey(key.storageId)));
  return hash;
}

export function requestRecord(ctx: ProxyContext, status: number, now: number, keysHashed: boolean): AnalyticsRecord | undefined {
  const spec = ctx.api.spec;
  if (spec.analytics.doNotTrack) return undefined;
  const version = ctx.version;
  if (version?.doNotTrackEndpoints && endpointRule(version.doNotTrackEndpoints, ctx)) return undefined;
  const tracked = version?.trackEndpoints ? endpointRule(version.trackEndpoints, ctx) : undefined;
  const key = ctx.key?.ok ? ctx.key : undefined;
  const session = key?.effective.session;
  const record: AnalyticsRecord = {
    time: ctx.startedAt,
    api_id: spec.id,
    api_version: clip(version?.name ?? '', MAX_RECORD_TEXT.name),
    org_id: spec.orgId,
    key_hash: key ? (keysHashed ? key.storageId : hashOf(key)) : '',
    alias: clip(session?.alias ?? '', MAX_RECORD_TEXT.name),
    method: ctx.method,
    path: clip(ctx.relPath, MAX_RECORD_TEXT.path),
    tracked_path: tracked ? clip(tracked.pattern.source, MAX_RECORD_TEXT.path) : '',
    status,
    latency_ms: now - ctx.startedAt,
    upstream_latency_ms: ctx.upstreamLatencyMs ?? 0,
    tags: recordTags(spec.analytics.tags, session?.tags ?? NO_TAGS),
  };
  if (ctx.capture) {
    const { request, response } = ctx.capture.texts();
    record.request = request;
    record.response = response;
  }
  return record;
}
