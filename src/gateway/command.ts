// `gw gateway`: runs a gateway until SIGINT/SIGTERM, then drains and exits.
//   gw gateway [--config FILE]          configuration file (JSON); GW_GATEWAY_* environment variables override it
//   gw gateway --config-reference       prints every option with its default and environment variable
//   gw gateway --import-swagger=FILE ... imports a document into an API definition instead (src/importers/cli.ts)
import { parseArgs } from 'node:util';
import { IMPORT_FLAGS, IMPORT_USAGE, runImport, wantsImport } from '../importers/cli.ts';
import { configReference, loadGatewayConfig } from './config.ts';
import { ConfigError, formatConfigReference } from '../config/file-and-env.ts';
import { Gateway } from './gateway.ts';

export const usage = `usage: gw gateway [--config FILE] [--config-reference]
       gw gateway (--import-swagger=FILE | --import-blueprint=FILE | --import-wsdl=FILE)
                  (--create-api | --for-api=FILE --as-version=NAME) [--upstream-target=URL] [--org-id=ID] [--as-mock]

Runs the gateway: the management API under /gw/ and the proxy, on listen_port.

  --config FILE         JSON configuration (see --config-reference); GW_GATEWAY_<KEY> environment variables override it
  --config-reference    print every configuration option with its default and environment variable, then exit

${IMPORT_USAGE}`;

export async function gateway(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { config: { type: 'string', short: 'c' }, 'config-reference': { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...IMPORT_FLAGS },
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (wantsImport(values)) return await runImport(values);
  if (values['config-reference']) {
    process.stdout.write(formatConfigReference(configReference()));
    return 0;
  }
  let loaded;
  try {
    loaded = loadGatewayConfig(values.config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gw gateway: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { config, unknownKeys } = loaded;
  const running = await Gateway.start(config);
  if (unknownKeys.length > 0) running.log.warn({ keys: unknownKeys }, `unknown configuration keys ignored: ${unknownKeys.join(', ')}`);
  const { proxy, control } = running.ports;
  running.log.info({ proxy, control, store: config.storage.type }, `gateway listening on ${config.listen_address}:${proxy}${control !== proxy ? ` (management on ${control})` : ''}`);
  await new Promise<void>((resolveSignal) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolveSignal());
  });
  running.log.info('shutting down: draining requests in flight');
  await running.close();
  return 0;
}
