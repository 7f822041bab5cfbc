// How every gw server reads its configuration (gateway, dashboard, governance hub): an optional JSON file, overridden
// key by key by environment variables <PREFIX><KEY PATH> (upper case, dots as underscores: storage.type of the
// gateway is GW_GATEWAY_STORAGE_TYPE), validated by the server's zod schema. Every option is declared once, in the
// schema, with its default and description; configOptions() lists them for --config-reference and the README.
// Environment values are strings for string options (and options without a default), JSON otherwise.
// Problems come back all at once, one line each naming the key or the variable, never echoing a value (secrets).
// A shared leaf: it imports nothing of ours but api/'s zod-issue wording, so every server may use it.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { issueLines } from '../domain/zod-issues.ts';

export interface ConfigOption {
  /** Dotted key path. */
  key: string;
  env: string;
  /** undefined: no default. */
  default: unknown;
  /** True when the option may be left out although it has no default. */
  optional: boolean;
  description: string;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(what: string, problems: string[]) {
    super(`invalid ${what} configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Every leaf option of the schema (nested objects walked), with its environment variable. */
export function configOptions(schema: z.ZodObject, envPrefix: string): ConfigOption[] {
  const options: ConfigOption[] = [];
  const walk = (shape: Record<string, z.ZodType>, prefix: string): void => {
    for (const [name, field] of Object.entries(shape)) {
      const key = prefix + name;
      const inner = unwrap(field);
      if (inner instanceof z.ZodObject) {
        walk(inner.shape, `${key}.`);
        continue;
      }
      const defaulted = field instanceof z.ZodDefault ? field.def.defaultValue : undefined;
      options.push({
        key,
        env: envPrefix + key.replaceAll('.', '_').toUpperCase(),
        default: defaulted,
        optional: defaulted === undefined && field.safeParse(undefined).success,
        description: field.description ?? '',
      });
    }
  };
  walk(schema.shape, '');
  return options;
}

/** The text of --config-reference. */
export function formatConfigReference(options: ConfigOption[]): string {
  return options.map((o) => `${o.key}\n  env: ${o.env}\n  default: ${JSON.stringify(o.default) ?? (o.optional ? '(none)' : '(required)')}\n  ${o.description}\n`).join('');
}

export interface ConfigSource {
  /** The JSON file; undefined: defaults and environment alone. */
  file: string | undefined;
  env: NodeJS.ProcessEnv;
  envPrefix: string;
  /** For messages: "gateway", "dashboard". */
  what: string;
  /** Against which a relative file path is read. Default process.cwd(). */
  cwd?: string;
}

export interface LoadedConfig<T> {
  config: T;
  /** Keys of the file the schema does not know (typos, options of Tyk not implemented): ignored. */
  unknownKeys: string[];
}

export interface ReadConfig<T> extends LoadedConfig<T> {
  /** The config file's directory (the working directory without one): relative paths in it are resolved here. */
  base: string;
}

/**
 * Reads, overrides and validates; `check` adds cross-field problems once the schema is satisfied. Throws
 * ConfigError listing every problem.
 */
export function readConfig<S extends z.ZodObject>(schema: S, source: ConfigSource, check: (config: z.infer<S>) => string[] = () => []): ReadConfig<z.infer<S>> {
  const cwd = source.cwd ?? process.cwd();
  const raw = source.file ? readJsonObject(resolve(cwd, source.file), source.file, source.what) : {};
  const problems: string[] = [];
  for (const option of configOptions(schema, source.envPrefix)) {
    const value = source.env[option.env];
    if (value === undefined) continue;
    try {
      setPath(raw, option.key, typeof option.default === 'string' || option.default === undefined ? value : JSON.parse(value));
    } catch {
      problems.push(`${option.env}: not valid JSON for ${option.key}`);
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    problems.push(...issueLines(parsed.error));
  } else {
    problems.push(...check(parsed.data));
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(source.what, problems);
  return { config: parsed.data, base: source.file ? dirname(resolve(cwd, source.file)) : cwd, unknownKeys: unknownKeys(raw, schema, '') };
}

function readJsonObject(path: string, shown: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(what, [`${shown}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(what, [`${shown}: not valid JSON (${(error as Error).message})`]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(what, [`${shown}: must hold a JSON object`]);
  return parsed as Record<string, unknown>;
}

function unknownKeys(raw: Record<string, unknown>, schema: z.ZodObject, prefix: string): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const field = (schema.shape as Record<string, z.ZodType | undefined>)[name];
    if (!field) {
      found.push(prefix + name);
      continue;
    }
    const inner = unwrap(field);
    if (inner instanceof z.ZodObject && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      found.push(...unknownKeys(value as Record<string, unknown>, inner, `${prefix}${name}.`));
    }
  }
  return found;
}

function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = (typeof next === 'object' && next !== null ? next : (node[part] = {})) as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodOptional) {
    current = current.def.innerType as z.ZodType;
  }
  return current;
}
