// `gw dashboard`: runs the dashboard until SIGINT/SIGTERM, then stops accepting, finishes requests and exits.
//   gw dashboard [--config FILE]          configuration file (JSON); GW_DASHBOARD_* environment variables override it
//   gw dashboard --config-reference       prints every option with its default and environment variable
// A missing or invalid configuration value exits with status 2 and names the key.
import { runServiceCommand } from '../config/command.ts';
import { configReference, loadDashboardConfig } from './config.ts';
import { Dashboard } from './dashboard.ts';

export const usage = `usage: gw dashboard [--config FILE] [--config-reference]

Runs the dashboard: the admin API (/admin), the org API (/api) and the node API gateways load from (/system).

  --config FILE         JSON configuration (see --config-reference); GW_DASHBOARD_<KEY> environment variables override it
  --config-reference    print every configuration option with its default and environment variable, then exit
`;

export async function dashboard(argv: string[]): Promise<number> {
  return runServiceCommand(argv, {
    name: 'dashboard',
    usage,
    configReference,
    loadConfig: loadDashboardConfig,
    start: async (config) => {
      const running = await Dashboard.start(config);
      running.log.info(
        {
          address: config.listen_address,
          port: running.port,
          edition: config.edition,
          hash_keys: config.hash_keys,
          allow_explicit_policy_id: config.allow_explicit_policy_id,
        },
        `dashboard listening on ${config.listen_address}:${running.port}`,
      );
      if (!config.allow_explicit_policy_id || !config.enable_duplicate_slugs) {
        running.log.info('allow_explicit_policy_id and enable_duplicate_slugs must both be true for the operator to manage policies here');
      }
      return running;
    },
  });
}
