// One proxied request -> its analytics record (api/analytics-record.ts), built when the response has been sent
// (the handler's 'finish' listener) from what the pipeline already decided: no lookup, no I/O. Undefined when the
// request must not be recorded: the API has do_not_track, or the endpoint is in do_not_track_endpoints. The key is
// recorded by its SHA-256 (the storage id when the gateway hashes keys; hashed here otherwise), never as sent.
// Bodies only when a detailed capture ran (middleware/recording/detailed-recording.ts).
// Two forms of the same record: requestRecord (an object) and requestRecordJson (its JSON text, what the gateway
// ships). The JSON form serialises the fields a request shares with every other request of the same API version
// and key (API, version, organisation, key hash, alias, tags) once per version and resolved key, and only the
// rest per request: serialising whole records was most of what analytics cost a request (bench/analytics-cost.ts).
import { MAX_RECORD_TAGS, MAX_RECORD_TEXT, type AnalyticsRecord } from '../../domain/analytics-record.ts';
import { hashKey } from '../../domain/key-hash.ts';
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

type SharedFields = Pick<AnalyticsRecord, 'api_id' | 'api_version' | 'org_id' | 'key_hash' | 'alias' | 'tags'>;
type OwnFields = Omit<AnalyticsRecord, keyof SharedFields>;

/** The tracked endpoint's template ('' for none), or undefined when the request must not be recorded. */
function trackedPath(ctx: ProxyContext): string | undefined {
  if (ctx.api.spec.analytics.doNotTrack) return undefined;
  const version = ctx.version;
  if (version?.doNotTrackEndpoints && endpointRule(version.doNotTrackEndpoints, ctx)) return undefined;
  const tracked = version?.trackEndpoints ? endpointRule(version.trackEndpoints, ctx) : undefined;
  return tracked ? clip(tracked.pattern.source, MAX_RECORD_TEXT.path) : '';
}

/** What every request of this API version with this key (or none) records alike. */
function sharedFields(ctx: ProxyContext, keysHashed: boolean): SharedFields {
  const spec = ctx.api.spec;
  const key = ctx.key?.ok ? ctx.key : undefined;
  const session = key?.effective.session;
  return {
    api_id: spec.id,
    api_version: clip(ctx.version?.name ?? '', MAX_RECORD_TEXT.name),
    org_id: spec.orgId,
    key_hash: key ? (keysHashed ? key.storageId : hashOf(key)) : '',
    alias: clip(session?.alias ?? '', MAX_RECORD_TEXT.name),
    tags: recordTags(spec.analytics.tags, session?.tags ?? NO_TAGS),
  };
}

/** What is this request's own. */
function ownFields(ctx: ProxyContext, tracked: string, status: number, now: number): OwnFields {
  const own: OwnFields = {
    time: ctx.startedAt,
    method: ctx.method,
    path: clip(ctx.relPath, MAX_RECORD_TEXT.path),
    tracked_path: tracked,
    status,
    latency_ms: now - ctx.startedAt,
    upstream_latency_ms: ctx.upstreamLatencyMs ?? 0,
  };
  if (ctx.capture) {
    const { request, response } = ctx.capture.texts();
    own.request = request;
    own.response = response;
  }
  return own;
}

export function requestRecord(ctx: ProxyContext, status: number, now: number, keysHashed: boolean): AnalyticsRecord | undefined {
  const tracked = trackedPath(ctx);
  return tracked === undefined ? undefined : { ...sharedFields(ctx, keysHashed), ...ownFields(ctx, tracked, status, now) };
}

/** The shared fields' JSON (without its closing brace): per resolved key and API version (or API), and per API
 * version for keyless requests. A reload compiles new version objects and a changed key resolves to a new object,
 * so neither is ever served stale text. */
const keyedJson = new WeakMap<object, { scope: object; text: string }>();
const keylessJson = new WeakMap<object, string>();

function sharedFieldsJson(ctx: ProxyContext, keysHashed: boolean): string {
  const scope = ctx.version ?? ctx.api.spec;
  const key = ctx.key?.ok ? ctx.key : undefined;
  const cached = key ? keyedJson.get(key) : undefined;
  if (cached?.scope === scope) return cached.text;
  if (!key) {
    const keyless = keylessJson.get(scope);
    if (keyless !== undefined) return keyless;
  }
  const text = JSON.stringify(sharedFields(ctx, keysHashed)).slice(0, -1);
  if (key) keyedJson.set(key, { scope, text });
  else keylessJson.set(scope, text);
  return text;
}

/** requestRecord's JSON text (the same record: request-record.test.ts parses one and compares it with the other). */
export function requestRecordJson(ctx: ProxyContext, status: number, now: number, keysHashed: boolean): string | undefined {
  const tracked = trackedPath(ctx);
  if (tracked === undefined) return undefined;
  const own = JSON.stringify(ownFields(ctx, tracked, status, now));
  return `${sharedFieldsJson(ctx, keysHashed)},${own.slice(1)}`;
}
