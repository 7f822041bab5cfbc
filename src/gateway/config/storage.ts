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
    host: z.string().default('127.0.0.1').describe('redis: host.'),
    port: port.default(6379).describe('redis: port.'),
    username: z.string().default('').describe('redis: ACL user name (empty: none).'),
    password: z.string().default('').describe('redis: password (empty: none).'),
    database: z.int().min(0).default(0).describe('redis: database number.'),
    key_prefix: z.string().default('gw:').describe('redis: prefix of every key the gateway writes.'),
  })
  .prefault({});
