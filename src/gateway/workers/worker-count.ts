// How many worker threads `gw gateway` runs (the `workers` option): 0 means one per core the process may use.
// Licensed mode runs one: its dashboard sync writes keys and polls the dashboard, which one thread must own.
import { availableParallelism } from 'node:os';
import type { GatewayConfig } from '../config.ts';

export function workerCount(
  config: Pick<GatewayConfig, 'workers' | 'use_db_app_configs'> & { policies: Pick<GatewayConfig['policies'], 'policy_source'> },
  cores = availableParallelism(),
): number {
  if (config.use_db_app_configs || config.policies.policy_source === 'service') return 1;
  return config.workers === 0 ? cores : config.workers;
}
