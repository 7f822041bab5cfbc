// Tyk's internal looping URLs (`tyk://<target>/<path>?<query>`), read without I/O: which API (`self`, an api_id or
// an API's looping name), the path and query the looped request gets, and the three control parameters Tyk Gateway
// takes off the query before dispatching: `method` (the looped request's method), `loop_limit` (the most loops one
// request may make; the first value > 0 sticks, default 5) and `check_limits` (rate limits and quotas apply to the
// looped request; by default they do not). Every other query parameter of the loop URL is kept; the client's own
// query is not (Tyk drops it).

export const DEFAULT_LOOP_LIMIT = 5;
const SCHEME = /^tyk:\/\//i;

export interface LoopUrl {
  /** `self`, an API id, or an API's name (compared by looping name: loopingName). */
  target: string;
  /** Starts with '/'. */
  path: string;
  /** '' or '?...' without the control parameters. */
  query: string;
  method?: string;
  loopLimit?: number;
  checkLimits?: boolean;
}

export function isLoopUrl(text: string): boolean {
  return SCHEME.test(text);
}

/** Undefined when `text` is no tyk:// URL with a target. */
export function parseLoopUrl(text: string): LoopUrl | undefined {
  if (!isLoopUrl(text)) return undefined;
  const rest = text.slice('tyk://'.length);
  const end = rest.search(/[/?]/);
  const host = end === -1 ? rest : rest.slice(0, end);
  if (host === '') return undefined;
  const tail = end === -1 ? '' : rest.slice(end);
  const mark = tail.indexOf('?');
  const rawPath = mark === -1 ? tail : tail.slice(0, mark);
  const params = new URLSearchParams(mark === -1 ? '' : tail.slice(mark + 1));
  const loop: LoopUrl = { target: safeDecode(host), path: rawPath.startsWith('/') ? rawPath : `/${rawPath}`, query: '' };
  const method = params.get('method');
  if (method) loop.method = method.toUpperCase();
  const limit = Number.parseInt(params.get('loop_limit') ?? '', 10);
  if (limit > 0) loop.loopLimit = limit;
  if (params.has('check_limits')) loop.checkLimits = params.get('check_limits') === 'true';
  for (const name of ['method', 'loop_limit', 'check_limits']) params.delete(name);
  const query = params.toString();
  loop.query = query ? `?${query}` : '';
  return loop;
}

/**
 * An API's looping name, as Tyk Gateway derives it: the name without a `#category` suffix (and the character before
 * the '#'), every run of characters other than letters and digits replaced by '-'. `tyk://hidden api/x` and an API
 * named "Hidden API" meet at `hidden-api` (compared case-insensitively).
 */
export function loopingName(name: string): string {
  const hash = name.indexOf('#');
  const trimmed = hash === -1 ? name : name.slice(0, Math.max(0, hash - 1));
  return trimmed.replace(/[^A-Za-z0-9]+/g, '-');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
