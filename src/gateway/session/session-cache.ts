// Keys as the proxy uses them: read from the store once, merged with their policies once (apply-policies.ts), with
// their allowed_urls compiled once, then served from memory until the key changes (management API, or another
// gateway through the store's key-changed notifications) or the policies change (a reload clears the cache).
// A request for a cached key costs one Map lookup: no store read, no policy merge, no regex compilation.
// Staleness is bounded twice: a stored key is read again once it has been cached `ttlMs`
// (local_session_cache.cached_session_timeout), and the whole cache is dropped whenever the store says changes may
// have gone unannounced (a Redis subscriber that reconnected missed what was published meanwhile).
// Sessions the gateway derives itself (a JWT identity's, built from its policies) are kept here too, beside the
// stored keys, so a policy change reaches them the same way.
// Both are lru-caches bounded by `maxEntries` (least recently used first out). The stored keys' expiry is each
// entry's own `until` on the injected clock, not lru-cache's TTL: that one runs on its own clock, treats a start
// time of 0 as "never expires" and still serves an entry at exactly its TTL, where a key cached ttlMs ago must be
// read again. Derived sessions have no TTL: they change only with the policies, and setPolicies drops them.
import { LRUCache } from 'lru-cache';
import type { Session } from '../../domain/session.ts';
import type { Store } from '../store/store.ts';
import { compilePathPattern, type PathPattern } from '../definition/path-pattern.ts';
import { applyPolicies, type EffectiveSession, type PolicyLookup } from './apply-policies.ts';
import { isOrganisationSessionId, organisationSessionId } from './keys.ts';

export interface CompiledAllowedUrl {
  pattern: PathPattern;
  /** Empty: every method. */
  methods: Set<string>;
}

export type ResolvedKey =
  | { storageId: string; ok: true; effective: EffectiveSession; allowedUrls(apiId: string): CompiledAllowedUrl[] }
  | { storageId: string; ok: false; error: string };

export interface SessionCacheOptions {
  /** Entries kept (each of stored and derived); the least recently used are dropped beyond it. Default 100 000. */
  maxEntries?: number;
  /** How long a stored key is served from memory before it is read again; 0 reads the store every time. Default 10 s. */
  ttlMs?: number;
  /** The clock (tests); Date.now by default. */
  now?: () => number;
}

interface CachedKey {
  key: ResolvedKey;
  /** Date.now() after which the store is read again. */
  until: number;
}

export class SessionCache {
  readonly #store: Store;
  readonly #entries: LRUCache<string, CachedKey>;
  readonly #derived: LRUCache<string, { policies: string; key: ResolvedKey }>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #policies: PolicyLookup;
  #generation = 0;

  constructor(store: Store, policies: PolicyLookup, options: SessionCacheOptions = {}) {
    this.#store = store;
    this.#policies = policies;
    const max = options.maxEntries ?? 100_000;
    this.#entries = new LRUCache({ max });
    this.#derived = new LRUCache({ max });
    this.#ttlMs = options.ttlMs ?? 10_000;
    this.#now = options.now ?? Date.now;
    store.onKeyChanged((storageId) => (storageId === undefined ? this.invalidateAll() : this.invalidate(storageId)));
  }

  /**
   * The client key stored under storageId, merged with its policies; undefined when there is no such key. An
   * organisation session's id is never a client's key (keys.ts): undefined, as for an unknown key.
   */
  resolve(storageId: string): ResolvedKey | undefined | Promise<ResolvedKey | undefined> {
    if (isOrganisationSessionId(storageId)) return undefined;
    return this.#resolve(storageId);
  }

  /** The organisation's session (/gw/org/keys); undefined when it has none. */
  resolveOrganisation(orgId: string): ResolvedKey | undefined | Promise<ResolvedKey | undefined> {
    return this.#resolve(organisationSessionId(orgId));
  }

  #resolve(storageId: string): ResolvedKey | undefined | Promise<ResolvedKey | undefined> {
    const cached = this.#entries.get(storageId);
    if (cached && cached.until > this.#now()) return cached.key;
    return this.#load(storageId);
  }

  /**
   * A session built by the gateway (not stored), merged with its policies once and reused while its policy list
   * (or the `fingerprint` given: a session whose own fields may change, e.g. one a JavaScript auth plugin returns)
   * is the same; bounded like stored keys.
   */
  derive(storageId: string, session: Session, fingerprint?: string): ResolvedKey {
    const policies = fingerprint ?? (session.apply_policies ?? []).join('\n');
    const cached = this.#derived.get(storageId);
    if (cached && cached.policies === policies) return cached.key;
    const applied = applyPolicies(session, this.#policies);
    const key: ResolvedKey = applied.ok
      ? { storageId, ok: true, effective: applied.effective, allowedUrls: compiledUrls(applied.effective) }
      : { storageId, ok: false, error: applied.error };
    this.#derived.set(storageId, { policies, key });
    return key;
  }

  /** Whether a policy with this id is loaded. */
  hasPolicy(id: string): boolean {
    return this.#policies(id) !== undefined;
  }

  invalidate(storageId: string): void {
    this.#generation++; // a load of this key in flight must not put the old session back
    this.#entries.delete(storageId);
  }

  /** Every stored key may have changed unannounced: read each again (derived sessions depend on policies only). */
  invalidateAll(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** New policies (after a reload): every merged session is stale. */
  setPolicies(policies: PolicyLookup): void {
    this.#policies = policies;
    this.#generation++;
    this.#entries.clear();
    this.#derived.clear();
  }

  async #load(storageId: string): Promise<ResolvedKey | undefined> {
    const generation = this.#generation;
    const session = await this.#store.getKey(storageId);
    if (!session) return undefined;
    const applied = applyPolicies(session, this.#policies);
    const resolved: ResolvedKey = applied.ok
      ? { storageId, ok: true, effective: applied.effective, allowedUrls: compiledUrls(applied.effective) }
      : { storageId, ok: false, error: applied.error };
    // A reload or a key change while the store was read would make this entry stale: do not keep it then.
    if (generation === this.#generation && this.#ttlMs > 0) {
      this.#entries.set(storageId, { key: resolved, until: this.#now() + this.#ttlMs });
    }
    return resolved;
  }
}

function compiledUrls(effective: EffectiveSession): (apiId: string) => CompiledAllowedUrl[] {
  const compiled = new Map<string, CompiledAllowedUrl[]>();
  return (apiId) => {
    let urls = compiled.get(apiId);
    if (!urls) {
      urls = (effective.access.get(apiId)?.allowedUrls ?? []).map((entry) => ({
        pattern: compilePathPattern(entry.url),
        methods: new Set((entry.methods ?? []).map((m) => m.toUpperCase())),
      }));
      compiled.set(apiId, urls);
    }
    return urls;
  };
}
