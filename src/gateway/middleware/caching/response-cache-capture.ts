// The response cache's copy of one upstream answer (a cache miss): decides from the upstream's head whether the
// answer may be cached — its status among the configured ones (the endpoint's, else the API's; none configured:
// any), no Set-Cookie (a cookie is one client's, never replayed to another: our rule, Tyk caches it), and
// with enable_upstream_cache_control only when the upstream sent X-Gw-Cache-Action-Set (or Tyk's
// X-Tyk-Cache-Action-Set), whose TTL header (cache_control_ttl_header, default X-Gw-/X-Tyk-Cache-Action-Set-Ttl)
// then replaces the configured TTL — then keeps the body up to cache_max_entry_bytes (a larger answer is served
// and not cached) and stores the whole at its end. A store failure is logged and never reaches the client.
import type { Logger } from 'pino';
import type { CacheSpec } from '../../definition/version-spec.ts';
import type { ResponseCapture, ResponseHead } from '../../pipeline/contract.ts';
import type { Store } from '../../store/store.ts';
import { encodeCachedAnswer } from './cached-answer.ts';

const ACTION_HEADERS = ['x-gw-cache-action-set', 'x-tyk-cache-action-set'];
const TTL_HEADERS = ['x-gw-cache-action-set-ttl', 'x-tyk-cache-action-set-ttl'];

export interface CaptureTarget {
  store: Store;
  apiId: string;
  key: string;
  cache: CacheSpec;
  /** The endpoint's own statuses and TTL (advance_cache_config), when it has them. */
  statuses: number[];
  ttlMs: number;
  maxBytes: number;
  log: Logger;
  now(): number;
}

export class CacheCapture implements ResponseCapture {
  readonly #target: CaptureTarget;
  #head: { status: number; headers: ResponseHead['headers'] } | undefined;
  #ttlMs = 0;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(target: CaptureTarget) {
    this.#target = target;
  }

  start(head: Readonly<ResponseHead>): boolean {
    const { cache, statuses } = this.#target;
    if (head.origin !== 'upstream' || head.headers['set-cookie'] !== undefined) return false;
    if (statuses.length > 0 && !statuses.includes(head.status)) return false;
    let ttlMs = this.#target.ttlMs;
    if (cache.upstreamControl) {
      if (!ACTION_HEADERS.some((name) => head.headers[name] !== undefined)) return false;
      const ttl = (cache.ttlHeader ? [cache.ttlHeader] : TTL_HEADERS).map((name) => head.headers[name]).find((value) => value !== undefined);
      if (ttl !== undefined && /^\d+$/.test(String(ttl))) ttlMs = Number(ttl) * 1000; // unreadable: the configured TTL, as Tyk
    }
    if (ttlMs <= 0) return false;
    this.#ttlMs = ttlMs;
    this.#head = { status: head.status, headers: { ...head.headers } };
    return true;
  }

  chunk(chunk: Buffer): void {
    if (this.#head === undefined) return;
    this.#bytes += chunk.length;
    if (this.#bytes > this.#target.maxBytes) {
      this.#head = undefined; // too large to cache: served, not kept
      this.#chunks = [];
    } else this.#chunks.push(chunk);
  }

  end(): void {
    const head = this.#head;
    if (head === undefined) return;
    this.#head = undefined;
    const { store, apiId, key, log } = this.#target;
    const entry = encodeCachedAnswer({ ...head, body: Buffer.concat(this.#chunks, this.#bytes) });
    this.#chunks = [];
    store.putCachedResponse(apiId, key, entry, this.#ttlMs, this.#target.now()).catch((error: unknown) => {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'response cache: storing an answer failed');
    });
  }
}
