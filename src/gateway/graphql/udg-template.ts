// The templates of a UDG data source (Tyk's `{{ .arguments.<name> }}`, `{{ .object.<path> }}`,
// `{{ .request.headers.<Name> }}`) rendered for one field: in URLs, headers, bodies, query values and GraphQL
// variables. A string renders as itself, a number or boolean as its text, an object or list as JSON, a missing
// value as nothing; in a URL each value is percent-encoded (an argument cannot add path segments or parameters).
// Other `{{ … }}` selectors are left as written, as Tyk leaves them. One pass over the text, no recursion: a value
// that looks like a template is not rendered again.

export interface TemplateValues {
  arguments: Record<string, unknown>;
  object: unknown;
  requestHeaders: Record<string, string | string[] | undefined>;
}

const PLACEHOLDER = /\{\{\s*\.(arguments|object|request\.headers)((?:\.[A-Za-z0-9_-]+)+)\s*\}\}/g;

export function renderTemplate(text: string, values: TemplateValues, encode: (value: string) => string = (v) => v): string {
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (_whole, selector: string, dotted: string) => {
    const path = dotted.slice(1).split('.');
    return encode(textOf(selected(selector, path, values)));
  });
}

/** Templates in a URL: values are percent-encoded. */
export function renderUrlTemplate(text: string, values: TemplateValues): string {
  return renderTemplate(text, values, encodeURIComponent);
}

function selected(selector: string, path: string[], values: TemplateValues): unknown {
  if (selector === 'request.headers') {
    const header = values.requestHeaders[path.join('.').toLowerCase()];
    return Array.isArray(header) ? header.join(', ') : header;
  }
  return pluck(selector === 'arguments' ? values.arguments : values.object, path);
}

/** The value at `path` in a JSON value (own properties only); undefined when any step is missing. */
export function pluck(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The parent object's properties the templates of these texts read (`{{ .object.code }}` -> code). */
export function objectFieldsRead(texts: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(PLACEHOLDER)) if (match[1] === 'object') names.add(match[2]!.slice(1).split('.')[0]!);
  return [...names];
}
