// The API form's common settings and the Classic definition they live in: read them out of a definition, and
// write them back into it, leaving every other field as it was (the editor holds the rest). Pure functions; the
// field paths the dashboard names in its errors map back to the inputs through SETTING_FIELDS.
export type AuthMode = 'keyless' | 'token' | 'basic' | 'jwt' | 'mtls';

export const AUTH_MODES: { mode: AuthMode; flag: string; label: string }[] = [
  { mode: 'keyless', flag: 'use_keyless', label: 'Open (keyless)' },
  { mode: 'token', flag: 'use_standard_auth', label: 'Authentication token' },
  { mode: 'basic', flag: 'use_basic_auth', label: 'Basic authentication' },
  { mode: 'jwt', flag: 'enable_jwt', label: 'JSON Web Token' },
  { mode: 'mtls', flag: 'use_mutual_tls_auth', label: 'Mutual TLS' },
];

export interface CommonSettings {
  name: string;
  listenPath: string;
  targetUrl: string;
  stripListenPath: boolean;
  active: boolean;
  authMode: AuthMode;
  /** Version names, comma-separated. */
  versions: string;
  defaultVersion: string;
  /** Requests per period across all clients; '' none. */
  rate: string;
  per: string;
  /** Comma-separated. */
  tags: string;
}

/** Which definition field each setting writes (the dashboard's error names). */
export const SETTING_FIELDS: Record<keyof CommonSettings, string[]> = {
  name: ['name'],
  listenPath: ['proxy.listen_path', 'proxy'],
  targetUrl: ['proxy.target_url'],
  stripListenPath: ['proxy.strip_listen_path'],
  active: ['active'],
  authMode: AUTH_MODES.map((m) => m.flag),
  versions: ['version_data', 'version_data.versions'],
  defaultVersion: ['version_data.default_version'],
  rate: ['global_rate_limit.rate', 'global_rate_limit'],
  per: ['global_rate_limit.per'],
  tags: ['tags'],
};

type Definition = Record<string, unknown>;

const objectAt = (value: unknown): Definition => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Definition) : {});
const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export const NEW_API: Definition = {
  name: '',
  active: true,
  use_keyless: true,
  proxy: { listen_path: '/', target_url: 'http://', strip_listen_path: true },
  version_data: { not_versioned: true, default_version: 'Default', versions: { Default: { name: 'Default' } } },
};

export function settingsOf(definition: Definition): CommonSettings {
  const proxy = objectAt(definition.proxy);
  const versionData = objectAt(definition.version_data);
  const limit = objectAt(definition.global_rate_limit);
  const auth = AUTH_MODES.find((m) => definition[m.flag] === true)?.mode ?? 'keyless';
  return {
    name: typeof definition.name === 'string' ? definition.name : '',
    listenPath: typeof proxy.listen_path === 'string' ? proxy.listen_path : '',
    targetUrl: typeof proxy.target_url === 'string' ? proxy.target_url : '',
    stripListenPath: proxy.strip_listen_path === true,
    active: definition.active !== false,
    authMode: auth,
    versions: Object.keys(objectAt(versionData.versions)).join(', '),
    defaultVersion: typeof versionData.default_version === 'string' ? versionData.default_version : '',
    rate: typeof limit.rate === 'number' ? String(limit.rate) : '',
    per: typeof limit.per === 'number' ? String(limit.per) : '',
    tags: Array.isArray(definition.tags) ? definition.tags.join(', ') : '',
  };
}

/** The definition with these settings applied (a new object; other fields kept). */
export function applySettings(definition: Definition, settings: CommonSettings): Definition {
  const next: Definition = { ...definition, name: settings.name, active: settings.active };
  next.proxy = { ...objectAt(definition.proxy), listen_path: settings.listenPath, target_url: settings.targetUrl, strip_listen_path: settings.stripListenPath };
  for (const { mode, flag } of AUTH_MODES) {
    if (mode === settings.authMode) next[flag] = true;
    else if (flag in next) next[flag] = false;
  }
  const names = list(settings.versions);
  const versionData = objectAt(definition.version_data);
  const existing = objectAt(versionData.versions);
  const versions = Object.fromEntries((names.length > 0 ? names : ['Default']).map((name) => [name, existing[name] ?? { name }]));
  next.version_data = {
    ...versionData,
    not_versioned: Object.keys(versions).length <= 1,
    default_version: settings.defaultVersion || Object.keys(versions)[0],
    versions,
  };
  // A number the user typed is sent as typed; a non-number goes too, so the dashboard names the field.
  const numberOrText = (text: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);
  if (settings.rate.trim() === '' && settings.per.trim() === '') delete next.global_rate_limit;
  else next.global_rate_limit = { ...objectAt(definition.global_rate_limit), rate: numberOrText(settings.rate), per: numberOrText(settings.per) };
  const tags = list(settings.tags);
  if (tags.length > 0) next.tags = tags;
  else delete next.tags;
  return next;
}
