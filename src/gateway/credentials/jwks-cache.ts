// JWKS endpoints' keys, fetched and kept per URL for every API that names the URL. A request never fetches: it is
// answered from memory while the keys are fresh; a stale set, or an unknown `kid`, starts one refetch shared by
// every request waiting for it, and at most one fetch per URL is attempted per `minRefetchMs` (so a client
// sending random kids, or an endpoint that is down, costs one fetch per interval, not one per request). A fetch
// is bounded in time and size; on failure the previous keys stay in use. Requests for other APIs never wait on
// it (each waits only on the URL its API names). Never logs key material.
// Whom it fetches from: API definitions name the URLs, so anyone who may write an API could make every gateway call
// an internal address. `allowedHosts` (config jwks.allowed_hosts) restricts the hosts: a URL on any other host is
// never fetched, its failure reported like any other. Redirects are never followed (undici's request does not;
// a 3xx is a failed fetch), so an allowed host cannot hand the fetch on to another one.
import { createPublicKey, createSecretKey, X509Certificate, type KeyObject } from 'node:crypto';
import { request } from 'undici';
import { JwksHosts } from './jwks-hosts.ts';

export interface JwksCacheOptions {
  /** How long fetched keys are fresh. Default 240 s (Tyk's jwks cache timeout). */
  ttlMs?: number;
  /** Least time between two fetches of one URL. Default 10 s. */
  minRefetchMs?: number;
  /** Whole fetch (connect, headers, body). Default 5 s. */
  timeoutMs?: number;
  /** Largest JWKS body accepted. Default 1 MiB. */
  maxBytes?: number;
  /** Hosts a JWKS may be fetched from (jwks-hosts.ts). Default: empty, every host. */
  allowedHosts?: readonly string[];
  now?: () => number;
}

interface Entry {
  byKid: Map<string, KeyObject>;
  all: KeyObject[];
  fetchedAt: number;
  lastAttempt: number;
  inflight?: Promise<void>;
}

export class JwksCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #minRefetchMs: number;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #now: () => number;
  readonly #hosts: JwksHosts;
  readonly #onError: (url: string, reason: string) => void;
  #flushes = 0;

  constructor(onError: (url: string, reason: string) => void, options: JwksCacheOptions = {}) {
    this.#onError = onError;
    this.#ttlMs = options.ttlMs ?? 240_000;
    this.#minRefetchMs = options.minRefetchMs ?? 10_000;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#maxBytes = options.maxBytes ?? 1024 * 1024;
    this.#now = options.now ?? Date.now;
    this.#hosts = new JwksHosts(options.allowedHosts ?? []);
  }

  /** Candidate keys: the one with this kid, or every key when kid is undefined. Empty when none is known. */
  keys(url: string, kid: string | undefined): KeyObject[] | Promise<KeyObject[]> {
    const entry = this.#entries.get(url);
    const now = this.#now();
    const found = entry ? pick(entry, kid) : [];
    const stale = !entry || now - entry.fetchedAt >= this.#ttlMs;
    const wanted = stale || found.length === 0;
    const mayFetch = !entry || entry.inflight !== undefined || now - entry.lastAttempt >= this.#minRefetchMs;
    if (!wanted || !mayFetch) return found;
    if (found.length > 0) {
      void this.#refresh(url); // stale but usable: refresh in the background
      return found;
    }
    return this.#refresh(url).then(() => pick(this.#entries.get(url)!, kid));
  }

  /**
   * Moves on every flush: what was verified with keys from before it (middleware/auth/jwt-auth.ts's verified tokens) is
   * verified again with the keys fetched after it.
   */
  get flushes(): number {
    return this.#flushes;
  }

  /** Forgets every URL's keys (DELETE /gw/cache/jwks). */
  clear(): void {
    this.#entries.clear();
    this.#flushes++;
  }

  /** Forgets one URL's keys (DELETE /gw/cache/jwks/{apiId}); the next request for them fetches at once. */
  forget(url: string): void {
    this.#entries.delete(url);
    this.#flushes++;
  }

  #refresh(url: string): Promise<void> {
    let entry = this.#entries.get(url);
    if (!entry) {
      entry = { byKid: new Map(), all: [], fetchedAt: -Infinity, lastAttempt: -Infinity };
      this.#entries.set(url, entry);
    }
    if (entry.inflight) return entry.inflight;
    const target = entry;
    target.lastAttempt = this.#now();
    target.inflight = this.#fetch(url)
      .then((keys) => {
        target.byKid = keys.byKid;
        target.all = keys.all;
        target.fetchedAt = this.#now();
      })
      .catch((error: unknown) => this.#onError(url, error instanceof Error ? error.message : String(error)))
      .finally(() => {
        target.inflight = undefined;
      });
    return target.inflight;
  }

  async #fetch(url: string): Promise<{ byKid: Map<string, KeyObject>; all: KeyObject[] }> {
    const refusal = this.#hosts.refusal(url);
    if (refusal) throw new Error(refusal);
    const response = await request(url, {
      signal: AbortSignal.timeout(this.#timeoutMs),
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      headers: { accept: 'application/json' },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > this.#maxBytes) {
        response.body.destroy();
        throw new Error(`JWKS body larger than ${this.#maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    if (response.statusCode >= 300 && response.statusCode < 400) throw new Error(`JWKS answered ${response.statusCode}: redirects are not followed`);
    if (response.statusCode !== 200) throw new Error(`JWKS answered ${response.statusCode}`);
    let document: unknown;
    try {
      document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new Error('JWKS is not JSON');
    }
    const list = (document as { keys?: unknown }).keys;
    if (!Array.isArray(list)) throw new Error('JWKS has no keys array');
    const byKid = new Map<string, KeyObject>();
    const all: KeyObject[] = [];
    for (const jwk of list as Record<string, unknown>[]) {
      if (typeof jwk !== 'object' || jwk === null || jwk.use === 'enc') continue;
      const key = importJwk(jwk);
      if (!key) continue;
      all.push(key);
      if (typeof jwk.kid === 'string') byKid.set(jwk.kid, key);
    }
    if (all.length === 0) throw new Error('JWKS has no usable key');
    return { byKid, all };
  }
}

function pick(entry: Entry, kid: string | undefined): KeyObject[] {
  if (kid === undefined) return entry.all;
  const key = entry.byKid.get(kid);
  return key ? [key] : [];
}

/** A JWK as a key object; the certificate in x5c[0] when the JWK itself cannot be read. */
function importJwk(jwk: Record<string, unknown>): KeyObject | undefined {
  try {
    if (jwk.kty === 'oct') return typeof jwk.k === 'string' ? createSecretKey(Buffer.from(jwk.k, 'base64url')) : undefined;
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    const x5c = jwk.x5c;
    if (!Array.isArray(x5c) || typeof x5c[0] !== 'string') return undefined;
    try {
      return new X509Certificate(Buffer.from(x5c[0], 'base64')).publicKey;
    } catch {
      return undefined;
    }
  }
}
