// Opens the store the configuration names: embedded (storage.path) or Redis (one server, Sentinel or Cluster:
// storage.host/port, addrs, master_name, enable_cluster...).
import type { GatewayConfig } from '../config.ts';
import { EmbeddedStore } from './embedded.ts';
import { RedisStore } from './redis.ts';
import type { Store } from './store.ts';

export async function openStore(config: GatewayConfig): Promise<Store> {
  if (config.storage.type === 'redis') return RedisStore.connect(config.storage);
  return EmbeddedStore.open(config.storage.path, { syncCounters: config.storage.sync_counters }, { cacheMemoryBytes: config.cache_memory_bytes });
}
