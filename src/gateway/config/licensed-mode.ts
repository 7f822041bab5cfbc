// Gateway options of licensed mode: APIs, policies and keys from the dashboard, analytics shipped to it (a part of
// the gateway's configuration, config.ts; the keys keep their place in --config-reference).
import { z } from 'zod';
import { MAX_RECORDS_PER_BATCH } from '../../domain/analytics-record.ts';

export const licensedModeOptions = {
  use_db_app_configs: z
    .boolean()
    .default(false)
    .describe(
      'Licensed mode: load APIs and keys from the dashboard named by db_app_conf_options (instead of app_path), reload when they change, keep serving the last good copy while it is unreachable.',
    ),
  db_app_conf_options: z
    .object({
      connection_string: z.string().default('').describe('Dashboard URL, e.g. http://dashboard:3000 (licensed mode).'),
      node_secret: z.string().default('').describe("The dashboard's node_secret, sent in header x-gw-node-secret (licensed mode)."),
      org_id: z.string().default('').describe("Load only this organisation's APIs, policies and keys; empty: every organisation."),
      poll_interval_seconds: z
        .number()
        .positive()
        .default(5)
        .describe('How often the dashboard is asked for changes (a conditional request: unchanged costs one 304).'),
    })
    .prefault({}),
  enable_analytics: z
    .boolean()
    .default(true)
    .describe(
      'Licensed mode: record one analytics record per proxied request and ship them to the dashboard (POST /system/analytics). Without a dashboard (ce mode) nothing is recorded.',
    ),
  analytics_config: z
    .object({
      enable_detailed_recording: z
        .boolean()
        .default(false)
        .describe('Every record carries the request and response (as if every key and API had enable_detailed_recording).'),
      detailed_body_bytes: z
        .int()
        .min(0)
        .max(1024 * 1024)
        .default(4096)
        .describe('Most bytes of a request or response body a detailed record keeps (the rest is cut).'),
      max_buffered_records: z
        .int()
        .min(1)
        .default(20_000)
        .describe(
          'Records held in memory while they wait to be shipped (the dashboard slow or down); beyond, each new record is dropped and counted in gw_analytics_records_dropped_total{reason="buffer_full"}.',
        ),
      batch_size: z.int().min(1).max(MAX_RECORDS_PER_BATCH).default(500).describe('Most records per POST to the dashboard; a full batch leaves at once.'),
      flush_interval: z.int().min(10).default(1000).describe('Milliseconds between shipments of a partial batch.'),
      retry_initial_ms: z.int().min(1).default(500).describe('First wait before shipping again after the dashboard failed; doubles on each failure.'),
      retry_max_ms: z.int().min(1).default(30_000).describe('Longest wait between shipping attempts while the dashboard is down.'),
      shutdown_flush_ms: z
        .int()
        .min(0)
        .default(5000)
        .describe(
          "On graceful shutdown, how long buffered records may take to ship; what is left then, or after the dashboard's first failure, is dropped (and counted).",
        ),
    })
    .prefault({}),
};

/** Licensed mode needs the dashboard's address and node secret. */
export function licensedModeProblems(config: {
  use_db_app_configs: boolean;
  policies: { policy_source: string };
  db_app_conf_options: { connection_string: string; node_secret: string };
}): string[] {
  if (!config.use_db_app_configs && config.policies.policy_source !== 'service') return [];
  const dashboard = config.db_app_conf_options;
  const why = config.use_db_app_configs ? 'use_db_app_configs is true' : 'policies.policy_source is service';
  const problems: string[] = [];
  if (!/^https?:\/\//.test(dashboard.connection_string))
    problems.push(`db_app_conf_options.connection_string: the dashboard URL (http:// or https://) is required when ${why}`);
  if (!dashboard.node_secret) problems.push(`db_app_conf_options.node_secret: required when ${why}`);
  return problems;
}
