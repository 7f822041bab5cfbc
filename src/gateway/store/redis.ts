// The shared store: several gateways on one Redis share APIs, policies, keys, certificates, quota counters and
// rate windows exactly, and reload together.
//
// Layout (every key under storage.key_prefix, default `gw:`): hashes `apis`, `policies`, `certs`, `keys` (field
// = id, value = JSON); per counter a sorted set `rate:<key>` (times of accepted requests) and a hash `quota:<key>`
// {used, renews} that expires when its period ends; cached answers as strings `cache:<api id>:<key>` expiring with their TTL. A limit decision is ONE round trip: a Lua script runs the
// algorithms of limits.ts atomically on the server (rate peek, quota check, then commit both or neither).
// On Redis Cluster (storage.enable_cluster) the counters are `rate:{<key>}` and `quota:{<key>}`: the hash tag puts
// one key's two counters, which the script touches together, in one slot. Elsewhere every command touches one key,
// or several keys one at a time (redis/connection.ts: SCAN on every master, per-key UNLINK); only writing a key
// with its counters reset (putKey) is not one MULTI there: the session is written, then the counters deleted.
// Pub/sub: `reload:<group>` asks the group to reload; `keys-changed` tells every gateway to drop a key from its
// session cache (a key changed through one gateway is seen by all). Pub/sub is fire and forget: what is published
// while the subscriber connection is down is lost, so when it is back (subscribed again) every key listener is
// told that any key may have changed, and every reload listener reloads once (a group reload may have been missed).
//
// Times come from the calling gateway's clock: keep gateways NTP-synchronised (skew of a few ms only shifts
// decisions at window edges by as much). Expiries are set relative (PEXPIRE), so Redis's own clock never enters a
// decision. A Redis that does not answer within storage.timeout (2 s), or is down, fails the request with 503
// (redis-errors.ts) rather than letting it hang.
import { randomBytes } from 'node:crypto';
import { Cluster } from 'ioredis';
import {
  connectRedis,
  redisTopology,
  deleteKeys,
  hashTag,
  keyPrefixSlotProblem,
  scanKeys,
  scanLiteral,
  type RedisClient,
  type RedisConnectionOptions,
} from '../redis/connection.ts';
import type { Session } from '../../domain/session.ts';
import type { GatewayConfig } from '../config.ts';
import { quotaState, type QuotaCounter } from './limits.ts';
import { failingAsUnavailable, rethrowAsStoreError, toStoreError } from './redis-errors.ts';
import type { LimitCheck, LimitResult, Quota, QuotaState, RateState, Store, StoredApi, StoredCert, StoredPolicy } from './store.ts';

/**
 * Sentinel: how long an accepted request waits for its count to reach a replica (Redis WAIT 1 <ms>). Redis replicates
 * asynchronously; a master that fails right after counting would otherwise take the count with it. A master with no
 * replica answers after this wait (the request is still served).
 */
const SENTINEL_REPLICA_WAIT_MS = 500;

/** KEYS: rate zset, quota hash. ARGV: now, rate, perMs, quotaMax, renewalMs, dryRun, member. */
const CHECK_LIMITS = `
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local per = tonumber(ARGV[3])
local qmax = tonumber(ARGV[4])
local renewal = tonumber(ARGV[5])
local dry = ARGV[6] == '1'

local used, renews = 0, 0
if qmax > 0 then
  local state = redis.call('HMGET', KEYS[2], 'used', 'renews')
  used = tonumber(state[1])
  renews = tonumber(state[2]) or 0
  if used == nil or (renews ~= 0 and now >= renews) then
    used = 0
    if renewal > 0 then renews = now + renewal else renews = 0 end
  end
end

local rate_remaining, retry = -1, 0
if rate > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - per)
  local count = redis.call('ZCARD', KEYS[1])
  if count >= rate then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    retry = tonumber(oldest[2]) + per - now
    if retry < 1 then retry = 1 end
    return {'rate_limited', 0, retry, used, renews}
  end
  rate_remaining = rate - count - 1
end

if qmax > 0 and used + 1 > qmax then
  return {'quota_exceeded', rate_remaining, retry, used, renews}
end

if not dry then
  if rate > 0 then
    redis.call('ZADD', KEYS[1], now, ARGV[7])
    redis.call('PEXPIRE', KEYS[1], math.ceil(per))
  end
  if qmax > 0 then
    redis.call('HSET', KEYS[2], 'used', used + 1, 'renews', renews)
    -- Relative expiry: the period's length, never an absolute time compared against Redis's own clock.
    if renews > 0 then redis.call('PEXPIRE', KEYS[2], math.max(1, renews - now)) else redis.call('PERSIST', KEYS[2]) end
  end
end
return {'allowed', rate_remaining, retry, used + 1, renews}
`;

type CheckLimitsReply = [string, number, number, number, number];

/**
 * The rate window's members must be unique across every gateway on this Redis (two requests in the same
 * millisecond are two entries): this process's random id once, then a counter — not random bytes per request.
 */
const MEMBER_PREFIX = `-${randomBytes(6).toString('hex')}-`;
let memberCount = 0;

interface WithScripts {
  gwCheckLimits(rateKey: string, quotaKey: string, ...args: (string | number)[]): Promise<CheckLimitsReply>;
}

export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  readonly #redis: RedisClient & WithScripts;
  readonly #subscriber: RedisClient;
  readonly #prefix: string;
  readonly #cluster: boolean;
  readonly #channelListeners = new Map<string, Set<(message: string) => void>>();
  readonly #keyListeners = new Set<(storageId: string | undefined) => void>();
  readonly #reloadListeners = new Set<(missed: boolean) => void>();

  readonly #replicaWaitMs: number;

  private constructor(redis: RedisClient, subscriber: RedisClient, prefix: string, replicaWaitMs: number) {
    this.#replicaWaitMs = replicaWaitMs;
    this.#redis = failingAsUnavailable(redis as RedisClient & WithScripts);
    this.#subscriber = subscriber;
    this.#prefix = prefix;
    this.#cluster = redis instanceof Cluster;
    redis.defineCommand('gwCheckLimits', { numberOfKeys: 2, lua: CHECK_LIMITS });
    subscriber.on('message', (channel: string, message: string) => {
      for (const listener of this.#channelListeners.get(channel) ?? []) listener(message);
    });
    // The subscriber connected at start before this; a later 'ready' is a reconnection.
    subscriber.on('ready', () => void this.#afterSubscriberReconnected());
  }

  /**
   * Subscribes again (ioredis does too; a second SUBSCRIBE is harmless) and, once Redis has confirmed it, so that
   * nothing published from then on can be missed, tells the key listeners that any key may have changed and the
   * reload listeners that a reload may have been missed.
   */
  async #afterSubscriberReconnected(): Promise<void> {
    try {
      const channels = [...this.#channelListeners.keys()];
      if (channels.length > 0) await this.#subscriber.subscribe(...channels);
    } catch {
      // lost again: the next 'ready' repeats this
    } finally {
      for (const listener of this.#keyListeners) listener(undefined);
      for (const listener of this.#reloadListeners) listener(true);
    }
  }

  static async connect(options: RedisConnectionOptions & Pick<GatewayConfig['storage'], 'key_prefix'>): Promise<RedisStore> {
    const slotProblem = options.enable_cluster ? keyPrefixSlotProblem(options.key_prefix) : undefined;
    if (slotProblem) throw new Error(slotProblem);
    const redis = await connectRedis(options);
    let subscriber: RedisClient;
    try {
      subscriber = await connectRedis(options, 'subscriber');
    } catch (error) {
      redis.disconnect();
      throw error;
    }
    const store = new RedisStore(redis, subscriber, options.key_prefix, redisTopology(options) === 'sentinel' ? SENTINEL_REPLICA_WAIT_MS : 0);
    await store.#subscribe(store.#key('keys-changed'), (storageId) => {
      for (const listener of store.#keyListeners) listener(storageId);
    });
    return store;
  }

  async listApis(): Promise<StoredApi[]> {
    return this.#values<StoredApi>('apis');
  }

  async getApi(id: string): Promise<StoredApi | undefined> {
    return this.#get<StoredApi>('apis', id);
  }

  async putApi(api: StoredApi): Promise<void> {
    await this.#redis.hset(this.#key('apis'), api.id, JSON.stringify(api));
  }

  async deleteApi(id: string): Promise<boolean> {
    return (await this.#redis.hdel(this.#key('apis'), id)) > 0;
  }

  async listPolicies(): Promise<StoredPolicy[]> {
    return this.#values<StoredPolicy>('policies');
  }

  async getPolicy(id: string): Promise<StoredPolicy | undefined> {
    return this.#get<StoredPolicy>('policies', id);
  }

  async putPolicy(policy: StoredPolicy): Promise<void> {
    await this.#redis.hset(this.#key('policies'), policy.id, JSON.stringify(policy));
  }

  async deletePolicy(id: string): Promise<boolean> {
    return (await this.#redis.hdel(this.#key('policies'), id)) > 0;
  }

  async listCerts(): Promise<StoredCert[]> {
    return this.#values<StoredCert>('certs');
  }

  async getCert(id: string): Promise<StoredCert | undefined> {
    return this.#get<StoredCert>('certs', id);
  }

  async putCert(cert: StoredCert): Promise<void> {
    await this.#redis.hset(this.#key('certs'), cert.id, JSON.stringify(cert));
  }

  async deleteCert(id: string): Promise<boolean> {
    return (await this.#redis.hdel(this.#key('certs'), id)) > 0;
  }

  async getKey(storageId: string): Promise<Session | undefined> {
    return this.#get<Session>('keys', storageId);
  }

  async putKey(storageId: string, session: Session, options: { resetCounters?: boolean } = {}): Promise<void> {
    const value = JSON.stringify(session);
    const counters = options.resetCounters ? await this.#counterKeys(storageId) : [];
    if (this.#cluster) {
      // The session and its counters live in different slots: no MULTI across them.
      await this.#redis.hset(this.#key('keys'), storageId, value);
      await deleteKeys(this.#redis, counters);
      await this.#redis.publish(this.#key('keys-changed'), storageId);
      return;
    }
    const write = this.#redis.multi().hset(this.#key('keys'), storageId, value);
    if (counters.length > 0) write.del(...counters);
    const results = await write.exec().catch((error: unknown) => {
      throw toStoreError(error);
    });
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (failed) throw toStoreError(failed);
    await this.#redis.publish(this.#key('keys-changed'), storageId);
  }

  async deleteKey(storageId: string): Promise<boolean> {
    const removed = (await this.#redis.hdel(this.#key('keys'), storageId)) > 0;
    if (removed) await this.#redis.publish(this.#key('keys-changed'), storageId);
    return removed;
  }

  async listKeys(): Promise<string[]> {
    return this.#redis.hkeys(this.#key('keys'));
  }

  async checkLimits(check: LimitCheck, now: number): Promise<LimitResult> {
    const { rate, quota } = check;
    // The counter left out is never touched, but is named in the slot of the other (one slot per script on a cluster).
    const placeholder = this.#cluster ? (rate ?? quota)!.key : '-';
    const [outcome, rateRemaining, retryMs, used, renews] = await this.#redis.gwCheckLimits(
      this.#counterKey('rate', rate?.key ?? placeholder),
      this.#counterKey('quota', quota?.key ?? placeholder),
      now,
      rate?.rate ?? 0,
      rate?.perMs ?? 0,
      quota?.max ?? 0,
      quota?.renewalMs ?? 0,
      check.dryRun ? '1' : '0',
      `${now}${MEMBER_PREFIX}${(memberCount = (memberCount + 1) % Number.MAX_SAFE_INTEGER)}`,
    );
    const rateState: RateState | undefined = rate ? { remaining: Number(rateRemaining), retryAfterMs: Number(retryMs) } : undefined;
    const quotaState: QuotaState | undefined = quota
      ? { used: Number(used), remaining: Math.max(0, quota.max - Number(used)), renewsAt: Number(renews) }
      : undefined;
    if (outcome === 'rate_limited') return { outcome, rate: rateState!, ...(quotaState ? { quota: quotaState } : {}) };
    if (outcome === 'quota_exceeded') return { outcome, quota: quotaState!, ...(rateState ? { rate: rateState } : {}) };
    // Under Sentinel, an accepted request is answered once its count reached a replica (or after the wait): a
    // failover promotes the replica, and a count only the old master had would be lost (an extra request accepted).
    if (this.#replicaWaitMs > 0 && !check.dryRun) await this.#redis.wait(1, this.#replicaWaitMs);
    return { outcome: 'allowed', ...(rateState ? { rate: rateState } : {}), ...(quotaState ? { quota: quotaState } : {}) };
  }

  async peekQuota(quota: Quota, now: number): Promise<QuotaState> {
    const [used, renews] = await this.#redis.hmget(this.#counterKey('quota', quota.key), 'used', 'renews');
    const counter: QuotaCounter | undefined = used === null ? undefined : { used: Number(used), renewsAt: Number(renews ?? 0) };
    return quotaState(counter, quota.max, quota.renewalMs, now);
  }

  async resetCounters(owner: string): Promise<void> {
    await deleteKeys(this.#redis, await this.#counterKeys(owner));
  }

  /** The Redis keys of an owner's quota counters and rate windows (`<owner>` and `<owner>|<scope>`). */
  async #counterKeys(owner: string): Promise<string[]> {
    const keys = [this.#counterKey('quota', owner), this.#counterKey('rate', owner)];
    for (const kind of ['quota', 'rate'] as const) {
      // `<kind>:<owner>|*`, or on a cluster `<kind>:{<owner>|*` (the tag's closing brace after the scope).
      const pattern = `${scanLiteral(this.#counterKey(kind, `${owner}|`).replace(/}$/, ''))}*`;
      await scanKeys(this.#redis, pattern, async (found) => void keys.push(...found)).catch(rethrowAsStoreError);
    }
    return keys;
  }

  /** `rate:<key>` / `quota:<key>`; on a cluster `rate:{<key>}` / `quota:{<key>}`, one slot per key. */
  #counterKey(kind: 'rate' | 'quota', key: string): string {
    return this.#key(this.#cluster ? `${kind}:${hashTag(key)}` : `${kind}:${key}`);
  }

  async getCachedResponse(apiId: string, key: string, _now: number): Promise<Buffer | undefined> {
    return (await this.#redis.getBuffer(this.#key(`cache:${apiId}:${key}`))) ?? undefined;
  }

  async putCachedResponse(apiId: string, key: string, entry: Buffer, ttlMs: number, _now: number): Promise<void> {
    await this.#redis.set(this.#key(`cache:${apiId}:${key}`), entry, 'PX', Math.max(1, Math.round(ttlMs)));
  }

  /** SCAN, not KEYS: Redis keeps serving other clients while the entries are found. */
  async deleteCachedResponses(apiId: string): Promise<void> {
    const pattern = `${scanLiteral(this.#key(`cache:${apiId}:`))}*`;
    await scanKeys(this.#redis, pattern, (keys) => deleteKeys(this.#redis, keys)).catch(rethrowAsStoreError);
  }

  async publishReload(group: string): Promise<void> {
    await this.#redis.publish(this.#key(`reload:${group}`), 'reload');
  }

  async onReload(group: string, listener: (missed: boolean) => void): Promise<() => void> {
    const unsubscribe = await this.#subscribe(this.#key(`reload:${group}`), () => listener(false));
    this.#reloadListeners.add(listener);
    return () => {
      unsubscribe();
      this.#reloadListeners.delete(listener);
    };
  }

  onKeyChanged(listener: (storageId: string | undefined) => void): void {
    this.#keyListeners.add(listener);
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.#redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.#subscriber.disconnect();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  async #subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    let listeners = this.#channelListeners.get(channel);
    if (!listeners) {
      this.#channelListeners.set(channel, (listeners = new Set()));
      await this.#subscriber.subscribe(channel);
    }
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  #key(name: string): string {
    return `${this.#prefix}${name}`;
  }

  async #values<T>(hash: string): Promise<T[]> {
    return Object.values(await this.#redis.hgetall(this.#key(hash))).map((value) => JSON.parse(value) as T);
  }

  async #get<T>(hash: string, id: string): Promise<T | undefined> {
    const value = await this.#redis.hget(this.#key(hash), id);
    return value === null ? undefined : (JSON.parse(value) as T);
  }
}
