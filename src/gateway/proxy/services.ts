// What pipeline steps may use, handed to them when an API is compiled: configuration, the store, the session
// cache, events and metrics, and the clock (injected so tests can move time).
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.ts';
import type { EventBus } from '../events.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { SessionCache } from '../session/session-cache.ts';
import type { StorageIds } from '../session/storage-ids.ts';
import type { Store } from '../store/store.ts';
import type { UpstreamPools } from './upstream-pools.ts';

export interface PipelineServices {
  config: GatewayConfig;
  store: Store;
  sessions: SessionCache;
  storageIds: StorageIds;
  events: EventBus;
  metrics: GatewayMetrics;
  pools: UpstreamPools;
  log: Logger;
  now(): number;
}
