// The one command runner of the long-running services (`gw gateway`, `gw dashboard`, `gw governance`): parses
// --config / --config-reference / --help (plus a service's own flags), prints the usage or the configuration
// reference, loads the configuration (a ConfigError exits 2 naming every key at fault), starts the service, warns
// about unknown configuration keys, then runs until a stop is requested (SIGINT/SIGTERM, or its gw parent gone: stop-request.ts) and closes it. Exit codes: 0 done, 2 bad
// arguments or configuration, or what the service's `refusal` says for an error it knows (its message printed,
// never a stack). It never reads the configuration's values itself and never logs them (they hold secrets).
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { stopRequested } from './stop-request.ts';
import { ConfigError, formatConfigReference, type ConfigOption, type LoadedConfig } from './file-and-env.ts';

/** What the runner needs of a started service. */
export interface RunningService {
  log: { info: (message: string) => void; warn: (fields: Record<string, unknown>, message: string) => void };
  close: () => Promise<void>;
}

export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface ServiceCommand<C> {
  /** The subcommand, for messages: `gw <name>: ...`. */
  name: string;
  usage: string;
  configReference: () => ConfigOption[];
  loadConfig: (file: string | undefined) => LoadedConfig<C>;
  /** The service's own flags, beside --config, --config-reference and --help. Default none. */
  extraFlags?: ParseArgsOptionsConfig;
  /** Runs instead of the service when the flags ask for something else (an exit code), else undefined. */
  intercept?: (values: FlagValues) => number | Promise<number> | undefined;
  start: (config: C) => Promise<RunningService>;
  /** The exit code for a startup error the service knows (its message is printed), else undefined. */
  refusal?: (error: unknown) => number | undefined;
  /** Logged when a signal arrives. Default `shutting down`. */
  shutdownMessage?: string;
}

export async function runServiceCommand<C>(argv: string[], command: ServiceCommand<C>): Promise<number> {
  const fail = (message: string, code: number): number => {
    process.stderr.write(`gw ${command.name}: ${message}\n`);
    return code;
  };
  let values: FlagValues;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { config: { type: 'string', short: 'c' }, 'config-reference': { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...command.extraFlags },
    }));
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${command.usage}`, 2);
  }
  if (values.help) {
    process.stdout.write(command.usage);
    return 0;
  }
  const intercepted = command.intercept?.(values);
  if (intercepted !== undefined) return await intercepted;
  if (values['config-reference']) {
    process.stdout.write(formatConfigReference(command.configReference()));
    return 0;
  }
  let loaded: LoadedConfig<C>;
  try {
    loaded = command.loadConfig(typeof values.config === 'string' ? values.config : undefined);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message, 2);
    throw error;
  }
  let running: RunningService;
  try {
    running = await command.start(loaded.config);
  } catch (error) {
    const code = command.refusal?.(error);
    if (code !== undefined) return fail((error as Error).message, code);
    throw error;
  }
  const { unknownKeys } = loaded;
  if (unknownKeys.length > 0) running.log.warn({ keys: unknownKeys }, `unknown configuration keys ignored: ${unknownKeys.join(', ')}`);
  await stopRequested();
  running.log.info(command.shutdownMessage ?? 'shutting down');
  await running.close();
  return 0;
}
