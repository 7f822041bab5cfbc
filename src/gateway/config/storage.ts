// The gateway's `storage` options: the embedded store or Redis (a part of the gateway's configuration, config.ts).
import { z } from 'zod';

const port = z.int().min(0).max(65535);

export const storageOptions = z
  .object({
    type: z.enum(['embedded', 'redis']).default('embedded').describe('`embedded`: on local disk, one gateway; `redis`: shared by several gateways.'),
    path: z.string().default('data').describe('embedded: directory of the store (APIs, policies, keys, quota counters).'),
    sync_counters: z
      .boolean()
      .default(false)
      .describe(
        'embedded: write every quota count before the request goes on, so a SIGKILL loses none; off, counts reach disk within milliseconds in batches (a synchronous write stalls all requests while the disk commits).',
      ),
    host: z.string().default('127.0.0.1').describe('redis: host (one server; ignored when addrs is set).'),
    port: port.default(6379).describe('redis: port (one server; ignored when addrs is set).'),
    addrs: z
      .array(z.string().regex(/^(\[[^\]]+\]|[^\s:[\]]+)(:\d{1,5})?$/, { error: 'must be host:port, e.g. redis-0.redis:6379' }))
      .default([])
      .describe(
        'redis: "host:port" addresses: nodes a Redis Cluster (enable_cluster) is discovered from, or the sentinels (master_name); with neither, the first is the one server. Empty: host and port.',
      ),
    enable_cluster: z
      .boolean()
      .default(false)
      .describe("redis: Redis Cluster: counters are hash-tagged so one key's limits share a slot; database must be 0."),
    master_name: z.string().default('').describe('redis: Redis Sentinel: the master the sentinels in addrs watch (empty: no Sentinel).'),
    sentinel_password: z.string().default('').describe('redis: password of the sentinels (empty: none).'),
    username: z.string().default('').describe('redis: ACL user name (empty: none).'),
    password: z.string().default('').describe('redis: password (empty: none).'),
    database: z.int().min(0).default(0).describe('redis: database number (0 on a cluster).'),
    key_prefix: z.string().default('gw:').describe('redis: prefix of every key the gateway writes.'),
    timeout: z.number().positive().max(300).default(2).describe('redis: seconds a connection or a command may take before the request fails with 503.'),
    use_ssl: z.boolean().default(false).describe('redis: connect over TLS (servers, sentinels and cluster nodes alike).'),
    ssl_insecure_skip_verify: z.boolean().default(false).describe("redis: TLS without verifying the server's certificate (tests only)."),
    ca_file: z.string().default('').describe("redis: PEM file of the CA(s) that sign the servers' certificates (empty: the system's CAs)."),
    cert_file: z.string().default('').describe('redis: PEM client certificate for servers that require one (with key_file).'),
    key_file: z.string().default('').describe('redis: PEM key of cert_file.'),
    tls_min_version: z.enum(['', '1.2', '1.3']).default('').describe("redis: lowest TLS version accepted (empty: Node's default, 1.2)."),
    tls_max_version: z.enum(['', '1.2', '1.3']).default('').describe('redis: highest TLS version offered (empty: 1.3).'),
  })
  .superRefine((storage, ctx) => {
    if (storage.type !== 'redis') return;
    const problem = (path: string, message: string): void => void ctx.addIssue({ code: 'custom', path: [path], message });
    if (storage.enable_cluster && storage.master_name)
      problem('master_name', 'Redis Sentinel (master_name) and Redis Cluster (enable_cluster) exclude each other');
    if (storage.enable_cluster && storage.database !== 0) problem('database', 'must be 0 on Redis Cluster (it has no other database)');
    if (storage.master_name && storage.addrs.length === 0) problem('addrs', "the sentinels' addresses are required with master_name");
    if (Boolean(storage.cert_file) !== Boolean(storage.key_file)) problem(storage.cert_file ? 'key_file' : 'cert_file', 'cert_file and key_file go together');
  })
  .prefault({});
