// `gw gateway`: runs a gateway until SIGINT/SIGTERM, then drains and exits.
//   gw gateway [--config FILE]          configuration file (JSON); GW_GATEWAY_* environment variables override it
//   gw gateway --config-reference       prints every option with its default and environment variable
//   gw gateway --import-swagger=FILE ... imports a document into an API definition instead (src/importers/cli.ts)
import { runServiceCommand } from '../config/command.ts';
import { IMPORT_FLAGS, IMPORT_USAGE, runImport, wantsImport, type ImportFlagValues } from '../importers/cli.ts';
import { configReference, loadGatewayConfig } from './config.ts';
import { DirectoryLockedError } from '../db/directory-lock.ts';
import { Gateway } from './gateway.ts';
import { pino } from 'pino';
import { WorkerGateway } from './workers/primary.ts';
import { workerCount } from './workers/worker-count.ts';

export const usage = `usage: gw gateway [--config FILE] [--config-reference]
       gw gateway (--import-swagger=FILE | --import-blueprint=FILE | --import-wsdl=FILE)
                  (--create-api | --for-api=FILE --as-version=NAME) [--upstream-target=URL] [--org-id=ID] [--as-mock]

Runs the gateway: the management API under /gw/ and the proxy, on listen_port, in \`workers\` threads (default one
per core).

  --config FILE         JSON configuration (see --config-reference); GW_GATEWAY_<KEY> environment variables override it
  --config-reference    print every configuration option with its default and environment variable, then exit

${IMPORT_USAGE}`;

export async function gateway(argv: string[]): Promise<number> {
  return runServiceCommand(argv, {
    name: 'gateway',
    usage,
    configReference,
    loadConfig: loadGatewayConfig,
    extraFlags: IMPORT_FLAGS,
    intercept: (values) => (wantsImport(values as ImportFlagValues) ? runImport(values as ImportFlagValues) : undefined),
    start: async (config) => {
      const workers = workerCount(config);
      if (config.workers > 1 && workers === 1) pino({ level: config.log_level }).warn('licensed mode runs one worker: workers ignored');
      const running = workers > 1 ? await WorkerGateway.start(config, workers, pino({ level: config.log_level })) : await Gateway.start(config);
      const { proxy, control, https } = running.ports;
      const scheme = config.http_server_options.use_ssl ? 'https' : 'http';
      running.log.info(
        { proxy, control, https, store: config.storage.type, workers },
        `gateway listening on ${config.listen_address}:${proxy} (${scheme})${https ? `, https on ${https}` : ''}${control !== proxy ? ` (management on ${control})` : ''}`,
      );
      return running;
    },
    refusal: (error) => (error instanceof DirectoryLockedError ? 1 : undefined),
    shutdownMessage: 'shutting down: draining requests in flight',
  });
}
