// One proxied request -> its analytics record (api/analytics-record.ts), built when the response has been sent
// (the handler's 'finish' listener) from what the pipeline already decided: no lookup, no I/O. Undefined when the
// request must not be recorded: the API has do_not_track, or the endpoint is in do_not_track_endpoints. The key is
// recorded by its SHA-256 (the storage id when the gateway hashes keys; hashed here otherwise), never as sent.
// Bodies only when a detailed capture ran (middleware/detailed-recording.ts).
import type { AnalyticsRecord } from '../../api/analytics-record.ts';
import { hashKey } from '../../api/key-hash.ts';
import type { ProxyContext } from '../pipeline/contract.ts';
import { endpointRule } from '../pipeline/endpoint-rule.ts';

const NO_TAGS: readonly string[] = [];

export function requestRecord(ctx: ProxyContext, status: number, now: number, keysHashed: boolean): AnalyticsRecord | undefined {
  const spec = ctx.api.spec;
  if (spec.analytics.doNotTrack) return undefined;
  const version = ctx.version;
  if (version?.doNotTrackEndpoints && endpointRule(version.doNotTrackEndpoints, ctx)) return undefined;
  const tracked = version?.trackEndpoints ? endpointRule(version.trackEndpoints, ctx) : undefined;
  const key = ctx.key?.ok ? ctx.key : undefined;
  const session = key?.effective.session;
  const keyTags = session?.tags ?? NO_TAGS;
  const record: AnalyticsRecord = {
    time: ctx.startedAt,
    api_id: spec.id,
    api_version: version?.name ?? '',
    org_id: spec.orgId,
    key_hash: key ? (keysHashed ? key.storageId : hashKey(key.storageId)) : '',
    alias: session?.alias ?? '',
    method: ctx.method,
    path: ctx.relPath,
    tracked_path: tracked ? tracked.pattern.source : '',
    status,
    latency_ms: now - ctx.startedAt,
    upstream_latency_ms: ctx.upstreamLatencyMs ?? 0,
    tags: keyTags.length === 0 ? spec.analytics.tags : [...new Set([...spec.analytics.tags, ...keyTags])],
  };
  if (ctx.capture) {
    const { request, response } = ctx.capture.texts();
    record.request = request;
    record.response = response;
  }
  return record;
}
