// The governance hub's configuration: a JSON file, overridden key by key by environment variables named
// GW_GOVERNANCE_<KEY> (listen_port is GW_GOVERNANCE_LISTEN_PORT). Every option is declared once here with its
// default and description; `gw governance --config-reference` prints them.
//
// database_url: postgres://... (a PostgreSQL server), `memory:` (throwaway), or a PGlite data directory; a relative
// directory (and the default, data/governance) is resolved against the config file's directory, or against the
// working directory without a config file. admin_token is optional here because it is only required while the
// database holds no admin token: hub.ts decides that once the database is open. Its value is never logged or echoed.
import { z } from 'zod';
import { configOptions, readConfig, type ConfigOption, type LoadedConfig } from '../config/file-and-env.ts';
import { resolveDatabaseUrl } from '../db/open.ts';

export const ADMIN_TOKEN_MIN_LENGTH = 16;

export const GovernanceConfigSchema = z.object({
  listen_address: z.string().min(1).default('127.0.0.1').describe('Address the governance API listens on.'),
  listen_port: z.int().min(0).max(65535).default(4000).describe('Port of the governance API (0: any free port).'),
  database_url: z
    .string()
    .min(1)
    .default('data/governance')
    .describe(
      'postgres://user:password@host:5432/db (PostgreSQL), memory: (in memory, lost at exit), or a PGlite data directory, relative to the config file (to the working directory without one).',
    ),
  admin_token: z
    .string()
    .min(ADMIN_TOKEN_MIN_LENGTH, `admin_token must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters`)
    .optional()
    .describe('Bootstrap admin credential, sent as X-API-Key. Required until an admin token exists in the database (gw governance token create --role admin).'),
  max_body_bytes: z
    .int()
    .positive()
    .default(1024 * 1024)
    .describe('Largest request body; larger ones get 413.'),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('Log level.'),
});

export type GovernanceConfig = z.infer<typeof GovernanceConfigSchema>;

export const ENV_PREFIX = 'GW_GOVERNANCE_';

/** Every option: its key, environment variable, default (undefined: none) and description. */
export function configReference(): ConfigOption[] {
  return configOptions(GovernanceConfigSchema, ENV_PREFIX);
}

/** Reads the JSON config file (optional), applies environment overrides, validates, resolves database_url. */
export function loadGovernanceConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): LoadedConfig<GovernanceConfig> {
  // Problems never echo a value: the admin token could be one of them.
  const loaded = readConfig(GovernanceConfigSchema, { file, env, envPrefix: ENV_PREFIX, what: 'governance', cwd });
  loaded.config.database_url = resolveDatabaseUrl(loaded.config.database_url, loaded.base);
  return { config: loaded.config, unknownKeys: loaded.unknownKeys };
}
