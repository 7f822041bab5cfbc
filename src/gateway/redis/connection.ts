// Connections to Redis, for every Redis user of the gateway: one server (storage.host/port), Redis Sentinel
// (storage.addrs lists sentinels, storage.master_name the master they watch) or Redis Cluster
// (storage.enable_cluster, storage.addrs lists seed nodes), each over TLS (storage.use_ssl, with ca_file, a client
// certificate, TLS versions) and with an ACL user (storage.username/password). Tyk Gateway's option names and meaning.
//
// What the topologies change for callers:
// - Cluster: every command of a script or MULTI must touch keys of one hash slot (`hashTag` puts a counter's keys in
//   one slot), SCAN must visit every master (`scanKeys`), and a multi-key DEL must be split per key (`deleteKeys`).
//   Database numbers do not exist (storage.database must be 0). Pub/sub messages reach every node.
// - Sentinel: the client asks the sentinels for the master, and on a failover (a sentinel's +switch-master, or the
//   old master answering READONLY once demoted) reconnects to the new master. A command is sent once or not at all
//   (never re-sent after a reconnection, never queued while disconnected): a request is never counted twice, nor
//   counted after it was answered 503.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

/** The storage options a connection reads (storage.* of the gateway's configuration). */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  addrs: string[];
  enable_cluster: boolean;
  master_name: string;
  sentinel_password: string;
  username: string;
  password: string;
  database: number;
  use_ssl: boolean;
  ssl_insecure_skip_verify: boolean;
  ca_file: string;
  cert_file: string;
  key_file: string;
  tls_min_version: '' | '1.2' | '1.3';
  tls_max_version: '' | '1.2' | '1.3';
  /** Seconds a connection attempt or a command may take. */
  timeout: number;
}

export type RedisClient = Redis | Cluster;
export type RedisTopology = 'server' | 'sentinel' | 'cluster';

export function redisTopology(options: Pick<RedisConnectionOptions, 'enable_cluster' | 'master_name'>): RedisTopology {
  if (options.enable_cluster) return 'cluster';
  return options.master_name ? 'sentinel' : 'server';
}

/** `host:port`, `[v6]:port` or a bare host (port 6379). */
export function parseRedisAddress(address: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(address);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 6379) };
  const colon = address.lastIndexOf(':');
  if (colon > 0 && address.indexOf(':') === colon) return { host: address.slice(0, colon), port: Number(address.slice(colon + 1)) };
  return { host: address, port: 6379 };
}

/** The servers to contact first: storage.addrs, or (left empty) storage.host and storage.port. */
function seeds(options: RedisConnectionOptions): { host: string; port: number }[] {
  return options.addrs.length > 0 ? options.addrs.map(parseRedisAddress) : [{ host: options.host, port: options.port }];
}

/** Where the gateway looks for Redis, for messages: never a password. */
export function describeRedis(options: RedisConnectionOptions): string {
  const list = seeds(options)
    .map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`)
    .join(', ');
  const tls = options.use_ssl ? ' over TLS' : '';
  switch (redisTopology(options)) {
    case 'cluster':
      return `Redis Cluster (seed nodes ${list})${tls}`;
    case 'sentinel':
      return `Redis master "${options.master_name}" of the sentinels ${list}${tls}`;
    default:
      return `Redis at ${list}${tls}`;
  }
}

/** Node's TLS options from storage.use_ssl and its files; undefined without use_ssl. */
export function redisTlsOptions(options: RedisConnectionOptions): ConnectionOptions | undefined {
  if (!options.use_ssl) return undefined;
  const read = (file: string, what: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new Error(`storage.${what}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
    }
  };
  return {
    rejectUnauthorized: !options.ssl_insecure_skip_verify,
    ...(options.ca_file ? { ca: read(options.ca_file, 'ca_file') } : {}),
    ...(options.cert_file ? { cert: read(options.cert_file, 'cert_file') } : {}),
    ...(options.key_file ? { key: read(options.key_file, 'key_file') } : {}),
    ...(options.tls_min_version ? { minVersion: `TLSv${options.tls_min_version}` as const } : {}),
    ...(options.tls_max_version ? { maxVersion: `TLSv${options.tls_max_version}` as const } : {}),
  };
}

/**
 * A failover demoted the server this connection talks to: reconnect, to the master the sentinels name. The refused
 * command was not executed; it fails (503) rather than wait for the new connection (no offline queue, below).
 */
function reconnectWhenDemoted(error: Error): boolean {
  return error.message.includes('READONLY');
}

/** Options shared by every connection to one server (also each node of a cluster). */
function serverOptions(options: RedisConnectionOptions, tls: ConnectionOptions | undefined): RedisOptions {
  const timeoutMs = options.timeout * 1000;
  return {
    ...(options.username ? { username: options.username } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...(tls ? { tls } : {}),
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    // A command is sent at once or not at all. One in flight when the connection dropped may have run, or (timed
    // out) been answered with a 503: sent again after reconnecting it would count a request twice, or count one that
    // was refused. The same for one queued while disconnected (the offline queue, off for commands below).
    autoResendUnfulfilledCommands: false,
  };
}

/**
 * A client for the topology the options name, not connected yet (`connectRedis` connects it). `subscriber`: a
 * connection for SUBSCRIBE, whose commands wait as long as they need (no command timeout).
 */
export function createRedisClient(options: RedisConnectionOptions, use: 'commands' | 'subscriber' = 'commands'): RedisClient {
  const tls = redisTlsOptions(options);
  const server = serverOptions(options, tls);
  if (use === 'subscriber') delete server.commandTimeout;
  // Commands fail at once while disconnected (503) rather than run after their request has been answered.
  const enableOfflineQueue = use === 'subscriber';
  const topology = redisTopology(options);
  if (topology === 'cluster') {
    const cluster: ClusterOptions = {
      redisOptions: server,
      lazyConnect: true,
      enableOfflineQueue,
      scaleReads: 'master',
      slotsRefreshTimeout: options.timeout * 1000,
      // Node addresses come from CLUSTER SLOTS as IPs: keep them (no DNS lookup), and verify TLS against them.
      dnsLookup: (address, callback) => callback(null, address),
    };
    return new Cluster(seeds(options), cluster);
  }
  const base: RedisOptions = {
    ...server,
    db: options.database,
    lazyConnect: true,
    enableOfflineQueue,
    reconnectOnError: reconnectWhenDemoted,
  };
  if (topology === 'sentinel') {
    return new Redis({
      ...base,
      sentinels: seeds(options),
      name: options.master_name,
      role: 'master',
      ...(options.sentinel_password ? { sentinelPassword: options.sentinel_password } : {}),
      ...(tls ? { enableTLSForSentinelMode: true, sentinelTLS: tls } : {}),
      sentinelCommandTimeout: options.timeout * 1000,
      // Subscribes to the sentinels' +switch-master: reconnects to the new master as soon as one is elected.
      failoverDetector: true,
    });
  }
  return new Redis({ ...base, ...seeds(options)[0]! });
}

/** Connects a client made by createRedisClient; fails with where it looked (never a password). */
export async function connectRedis(options: RedisConnectionOptions, use: 'commands' | 'subscriber' = 'commands'): Promise<RedisClient> {
  const client = createRedisClient(options, use);
  // Failures surface on the commands that hit them and reconnecting is automatic; the first one explains a failed
  // start (a TLS verification error or a refused password, where connect() itself only says the connection closed).
  let cause: Error | undefined;
  client.on('error', (error: Error) => (cause ??= error));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const why = [cause?.message, (error as Error).message].filter((text, i, all) => text && all.indexOf(text) === i).join('; ');
    throw new Error(`cannot reach ${describeRedis(options)}: ${why}`, { cause: error });
  }
  return client;
}

/**
 * `{tag}`: every key holding the same hash tag lands in one hash slot of a Redis Cluster (the slot hashes the text
 * between the first `{` and the next `}`, or the whole key when that text is empty). Any tag works, `{` and `}`
 * included: the slot comes from the text before the tag's first `}`, the same for every key made with the tag; a tag
 * that is empty or starts with `}` (an empty slot text) gets a `_` in front.
 */
export function hashTag(tag: string): string {
  return tag === '' || tag.startsWith('}') ? `{_${tag}}` : `{${tag}}`;
}

/**
 * Why keys `<prefix><kind>:{tag}` of one tag would NOT share a slot, or undefined: a prefix with a `{` not closed by a
 * later `}` (or closed at once, `{}`), where the slot would be taken from text that differs between kinds.
 */
export function keyPrefixSlotProblem(prefix: string): string | undefined {
  const open = prefix.indexOf('{');
  if (open < 0) return undefined;
  const close = prefix.indexOf('}', open + 1);
  if (close > open + 1) return undefined; // a hash tag of its own: every key in one slot (all on one node)
  return `storage.key_prefix "${prefix}" has a "{" without a hash tag after it: a limit's keys would fall in different Redis Cluster slots`;
}

/** Every key matching a SCAN pattern, from every master of a cluster (SCAN sees one node only). */
export async function scanKeys(client: RedisClient, pattern: string, onKeys: (keys: string[]) => Promise<void>): Promise<void> {
  const servers = client instanceof Cluster ? client.nodes('master') : [client];
  for (const server of servers) {
    let cursor = '0';
    do {
      const [next, keys] = await server.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length > 0) await onKeys(keys);
      cursor = next;
    } while (cursor !== '0');
  }
}

/** UNLINKs keys in one command on one server; one command per key on a cluster (keys of different slots). */
export async function deleteKeys(client: RedisClient, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  if (client instanceof Cluster) await Promise.all(keys.map((key) => client.unlink(key)));
  else await client.unlink(...keys);
}

/** A SCAN MATCH pattern matching `text` literally. */
export function scanLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
