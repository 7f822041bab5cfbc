// `gw dashboard`: runs the dashboard until SIGINT/SIGTERM, then stops accepting, finishes requests and exits.
//   gw dashboard [--config FILE]          configuration file (JSON); GW_DASHBOARD_* environment variables override it
//   gw dashboard --config-reference       prints every option with its default and environment variable
// A missing or invalid configuration value exits with status 2 and names the key.
import { parseArgs } from 'node:util';
import { configReference, loadDashboardConfig } from './config.ts';
import { ConfigError, formatConfigReference } from '../config/file-and-env.ts';
import { Dashboard } from './dashboard.ts';

export const usage = `usage: gw dashboard [--config FILE] [--config-reference]

Runs the dashboard: the admin API (/admin), the org API (/api) and the node API gateways load from (/system).

  --config FILE         JSON configuration (see --config-reference); GW_DASHBOARD_<KEY> environment variables override it
  --config-reference    print every configuration option with its default and environment variable, then exit
`;

export async function dashboard(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { config: { type: 'string', short: 'c' }, 'config-reference': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    process.stderr.write(`gw dashboard: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (values['config-reference']) {
    process.stdout.write(formatConfigReference(configReference()));
    return 0;
  }
  let loaded;
  try {
    loaded = loadDashboardConfig(values.config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gw dashboard: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { config, unknownKeys } = loaded;
  const running = await Dashboard.start(config);
  if (unknownKeys.length > 0) running.log.warn({ keys: unknownKeys }, `unknown configuration keys ignored: ${unknownKeys.join(', ')}`);
  running.log.info(
    { address: config.listen_address, port: running.port, edition: config.edition, hash_keys: config.hash_keys, allow_explicit_policy_id: config.allow_explicit_policy_id },
    `dashboard listening on ${config.listen_address}:${running.port}`,
  );
  if (!config.allow_explicit_policy_id || !config.enable_duplicate_slugs) {
    running.log.info('allow_explicit_policy_id and enable_duplicate_slugs must both be true for the operator to manage policies here');
  }
  await new Promise<void>((resolveSignal) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolveSignal());
  });
  running.log.info('shutting down');
  await running.close();
  return 0;
}
