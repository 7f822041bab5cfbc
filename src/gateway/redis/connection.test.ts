// The Redis connection options: addresses, topology, TLS options, and the hash tags that keep a limit's keys in one
// Redis Cluster slot.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayConfigSchema } from '../config.ts';
import { describeRedis, hashTag, keyPrefixSlotProblem, parseRedisAddress, redisTlsOptions, redisTopology, type RedisConnectionOptions } from './connection.ts';

function storage(options: Record<string, unknown> = {}): RedisConnectionOptions {
  return GatewayConfigSchema.parse({ secret: 's', storage: { type: 'redis', ...options } }).storage;
}

/** The text Redis Cluster hashes for a key's slot (CLUSTER KEYSLOT's rule). */
function slotText(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('Redis connection options', () => {
  it('reads host:port, [IPv6]:port and a bare host (port 6379)', () => {
    expect(parseRedisAddress('redis-0.redis:6380')).toEqual({ host: 'redis-0.redis', port: 6380 });
    expect(parseRedisAddress('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    expect(parseRedisAddress('redis')).toEqual({ host: 'redis', port: 6379 });
  });

  it('names the topology: cluster with enable_cluster, sentinel with master_name, else one server', () => {
    expect(redisTopology(storage({ enable_cluster: true, addrs: ['a:1'] }))).toBe('cluster');
    expect(redisTopology(storage({ master_name: 'm', addrs: ['a:26379'] }))).toBe('sentinel');
    expect(redisTopology(storage())).toBe('server');
  });

  it('describes where it looks, without the passwords', () => {
    const text = describeRedis(
      storage({ master_name: 'mymaster', addrs: ['s1:26379', 's2:26379'], password: 'p4ss', sentinel_password: 's3cr3t', use_ssl: true }),
    );
    expect(text).toBe('Redis master "mymaster" of the sentinels s1:26379, s2:26379 over TLS');
    expect(describeRedis(storage({ port: 6380 }))).toBe('Redis at 127.0.0.1:6380');
  });

  it('refuses contradictory storage options at start, naming the key', () => {
    const problems = GatewayConfigSchema.safeParse({
      secret: 's',
      storage: { type: 'redis', enable_cluster: true, master_name: 'm', database: 2, cert_file: '/c.pem', addrs: ['a b'] },
    }).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(problems).toEqual([
      'storage.addrs.0: must be host:port, e.g. redis-0.redis:6379',
      'storage.master_name: Redis Sentinel (master_name) and Redis Cluster (enable_cluster) exclude each other',
      'storage.database: must be 0 on Redis Cluster (it has no other database)',
      'storage.key_file: cert_file and key_file go together',
    ]);
    expect(GatewayConfigSchema.safeParse({ secret: 's', storage: { type: 'redis', master_name: 'm' } }).error?.issues[0]?.message).toBe(
      "the sentinels' addresses are required with master_name",
    );
  });

  it('builds TLS options from the files, verifying the server unless told not to', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-redis-tls-'));
    writeFileSync(join(dir, 'ca.pem'), 'CA');
    expect(redisTlsOptions(storage())).toBeUndefined();
    expect(redisTlsOptions(storage({ use_ssl: true, ca_file: join(dir, 'ca.pem'), tls_min_version: '1.3' }))).toEqual({
      rejectUnauthorized: true,
      ca: Buffer.from('CA'),
      minVersion: 'TLSv1.3',
    });
    expect(redisTlsOptions(storage({ use_ssl: true, ssl_insecure_skip_verify: true }))).toEqual({ rejectUnauthorized: false });
    expect(() => redisTlsOptions(storage({ use_ssl: true, ca_file: join(dir, 'missing.pem') }))).toThrow(
      /storage\.ca_file: cannot read .*missing\.pem \(ENOENT\)/,
    );
  });

  it('puts the rate and quota keys of any counter in one slot, whatever braces the counter holds', () => {
    for (const counter of ['k1', 'abc|api', '', '}x', '{x', 'a}b', '{}', 'org/o1|{p}']) {
      expect(slotText(`gw:rate:${hashTag(counter)}`)).toBe(slotText(`gw:quota:${hashTag(counter)}`));
      expect(slotText(`gw:rate:${hashTag(counter)}`)).not.toBe(`gw:rate:${hashTag(counter)}`);
    }
    expect(hashTag('}x')).not.toBe(hashTag('x'));
  });

  it('refuses a key prefix whose "{" would take the slot from text that differs between keys', () => {
    expect(keyPrefixSlotProblem('gw:')).toBeUndefined();
    expect(keyPrefixSlotProblem('{gw}:')).toBeUndefined();
    expect(keyPrefixSlotProblem('gw{')).toMatch(/storage\.key_prefix "gw\{" has a "\{" without a hash tag/);
    expect(keyPrefixSlotProblem('gw{}:')).toBeDefined();
  });
});
