// The governance hub's configuration: a JSON file, overridden key by key by environment variables named
// GW_GOVERNANCE_<KEY> (listen_port is GW_GOVERNANCE_LISTEN_PORT). Every option is declared once here with its
// default and description; `gw governance --config-reference` prints them.
//
// database_url: postgres://... (a PostgreSQL server), `memory:` (throwaway), or a PGlite data directory; a relative
// directory (and the default, data/governance) is resolved against the config file's directory, or against the
// working directory without a config file. admin_token is optional here because it is only required while the
// database holds no admin token: hub.ts decides that once the database is open. Its value is never logged or echoed.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

export const ADMIN_TOKEN_MIN_LENGTH = 16;

export const GovernanceConfigSchema = z.object({
  listen_address: z.string().min(1).default('127.0.0.1').describe('Address the governance API listens on.'),
  listen_port: z.int().min(0).max(65535).default(4000).describe('Port of the governance API (0: any free port).'),
  database_url: z
    .string()
    .min(1)
    .default('data/governance')
    .describe('postgres://user:password@host:5432/db (PostgreSQL), memory: (in memory, lost at exit), or a PGlite data directory, relative to the config file (to the working directory without one).'),
  admin_token: z
    .string()
    .min(ADMIN_TOKEN_MIN_LENGTH, `admin_token must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters`)
    .optional()
    .describe('Bootstrap admin credential, sent as X-API-Key. Required until an admin token exists in the database (gw governance token create --role admin).'),
  max_body_bytes: z.int().positive().default(1024 * 1024).describe('Largest request body; larger ones get 413.'),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('Log level.'),
});

export type GovernanceConfig = z.infer<typeof GovernanceConfigSchema>;

export const ENV_PREFIX = 'GW_GOVERNANCE_';

export class GovernanceConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid governance configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'GovernanceConfigError';
    this.problems = problems;
  }
}

export interface ConfigOption {
  key: string;
  env: string;
  default: unknown;
  description: string;
}

/** Every option: its key, environment variable, default (undefined: none) and description. */
export function configReference(): ConfigOption[] {
  return Object.entries(GovernanceConfigSchema.shape).map(([key, field]) => ({
    key,
    env: ENV_PREFIX + key.toUpperCase(),
    default: field instanceof z.ZodDefault ? field.def.defaultValue : undefined,
    description: field.description ?? '',
  }));
}

export interface LoadedConfig {
  config: GovernanceConfig;
  /** Keys of the file the hub does not know (typos): ignored, reported as a warning. */
  unknownKeys: string[];
}

/** Reads the JSON config file (optional), applies environment overrides, validates, resolves database_url. */
export function loadGovernanceConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): LoadedConfig {
  let raw: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new GovernanceConfigError([`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new GovernanceConfigError([`${file}: not valid JSON (${(error as Error).message})`]);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new GovernanceConfigError([`${file}: must hold a JSON object`]);
    raw = parsed as Record<string, unknown>;
  }
  const problems: string[] = [];
  for (const option of configReference()) {
    const value = env[option.env];
    if (value === undefined) continue;
    if (typeof option.default === 'number') {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number)) problems.push(`${option.env}: not a number`);
      else raw[option.key] = number;
    } else {
      raw[option.key] = value;
    }
  }
  const parsed = GovernanceConfigSchema.safeParse(raw);
  if (!parsed.success) {
    // Never echo a value: the admin token could be one of them.
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  if (problems.length > 0 || !parsed.success) throw new GovernanceConfigError(problems);
  const config = parsed.data;
  config.database_url = resolveDatabaseUrl(config.database_url, file ? dirname(resolve(cwd, file)) : cwd);
  const known = new Set(Object.keys(GovernanceConfigSchema.shape));
  return { config, unknownKeys: Object.keys(raw).filter((key) => !known.has(key)) };
}

/** PostgreSQL URLs and `memory:` as given; a PGlite directory made absolute against base. */
export function resolveDatabaseUrl(url: string, base: string): string {
  if (/^postgres(ql)?:\/\//.test(url) || url === 'memory:') return url;
  return isAbsolute(url) ? url : resolve(base, url);
}

/** The PGlite data directory a resolved database_url names, if it names one. */
export function pgliteDirectory(url: string): string | undefined {
  return /^postgres(ql)?:\/\//.test(url) || url === 'memory:' ? undefined : url;
}
