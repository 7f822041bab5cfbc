// Licensed mode's analytics: the shipper (shipper.ts) wired to the dashboard's node API, and the recorder the
// proxy calls when a response has been sent. Records are buffered as their JSON text (request-record.ts), and a
// batch is those texts joined into {"records": [...]}, so no record is serialised twice. The dashboard's answer decides a batch's fate: 2xx accepted; 5xx, 429,
// 408 and 401/403 (a dashboard being restarted or reconfigured) retried with backoff; any other 4xx refused for good.
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.ts';
import type { NodeConfigClient } from '../dashboard-sync/node-client.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { ProxyContext } from '../pipeline/contract.ts';
import { requestRecordJson } from './request-record.ts';
import { AnalyticsShipper, type ShipOutcome } from './shipper.ts';

const RETRIED = new Set([401, 403, 408, 429]);

export function outcomeOf(status: number): ShipOutcome {
  if (status >= 200 && status < 300) return 'accepted';
  if (status >= 500 || RETRIED.has(status)) return 'retry';
  return 'refused';
}

export class DashboardAnalytics {
  readonly shipper: AnalyticsShipper<string>;
  readonly #keysHashed: boolean;

  constructor(config: GatewayConfig, client: NodeConfigClient, metrics: GatewayMetrics, log: Logger) {
    const options = config.analytics_config;
    this.#keysHashed = config.hash_keys;
    this.shipper = new AnalyticsShipper<string>(
      {
        max_buffered_records: options.max_buffered_records,
        batch_size: options.batch_size,
        flush_interval_ms: options.flush_interval,
        retry_initial_ms: options.retry_initial_ms,
        retry_max_ms: options.retry_max_ms,
      },
      async (records) => outcomeOf(await client.postAnalytics(`{"records":[${records.join(',')}]}`)),
      metrics,
      log,
    );
  }

  /** The proxy's 'finish' hook: one record, pushed (or counted as dropped). */
  readonly record = (ctx: ProxyContext, status: number): void => {
    const record = requestRecordJson(ctx, status, Date.now(), this.#keysHashed);
    if (record !== undefined) this.shipper.record(record);
  };
}
