// The web UI's only way to the dashboard: same-origin fetch with the session cookies (never an access key or the
// admin secret), the session's CSRF token on every write (the administrator session's on /admin and
// /session/admin, the user session's elsewhere), and one error type. A 401 means the session ended (expired, signed out
// elsewhere, key reset): the app is told through SESSION_ENDED and shows the sign-in page, except for a request sent
// before the person signed out themselves (signingOut): its 401 is the sign-out, not news. Must never store a
// credential in localStorage or a cookie of its own.
import { fieldErrorsOf, type FieldError } from './field-errors.ts';

export const SESSION_ENDED = 'gw-session-ended';

export class ApiError extends Error {
  readonly status: number;
  readonly fields: FieldError[];

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fieldErrorsOf(message);
  }
}

/** The refusal's words about this field (or a field inside it), for the form control that shows it. */
export function errorAt(error: unknown, field: string): string | undefined {
  const found = error instanceof ApiError ? error.fields.find((f) => f.field === field || f.field.startsWith(`${field}.`)) : undefined;
  return found && `${found.field}: ${found.message}`;
}

/** A failure that names no field (shown as one alert), or undefined. */
export function generalError(error: unknown): string | undefined {
  if (error === undefined || (error instanceof ApiError && error.fields.length > 0)) return undefined;
  return error instanceof Error ? error.message : 'the request failed';
}

const csrfTokens = { user: '', admin: '' };

/** The CSRF token of the user's session, or of the administrator's. */
export function setCsrfToken(token: string, of: 'user' | 'admin' = 'user'): void {
  csrfTokens[of] = token;
}

const isAdminPath = (path: string): boolean => path.startsWith('/admin/') || path === '/session/admin';

// How many times each session was signed out from this page: a request remembers the count it was sent under.
const signOuts = { user: 0, admin: 0 };

/** The person is signing out of this session: answers 401 to requests already sent are no longer SESSION_ENDED. */
export function signingOut(of: 'user' | 'admin' = 'user'): void {
  signOuts[of] += 1;
}

export interface Answer<T> {
  data: T;
  headers: Headers;
}

export interface CallOptions {
  /** A body sent as it is (PEM text) instead of JSON. */
  text?: string;
}

export async function call<T>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Answer<T>> {
  const session = isAdminPath(path) ? 'admin' : 'user';
  const sentUnder = signOuts[session];
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfTokens[session];
  let payload: string | undefined;
  if (options.text !== undefined) {
    headers['content-type'] = 'text/plain';
    payload = options.text;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  const text = await response.text();
  const data = parsed(text);
  if (!response.ok) {
    const message = typeof data === 'object' && data !== null && 'Message' in data ? String(data.Message) : `HTTP ${response.status}`;
    const sessionEnded = response.status === 401 && path !== '/session' && path !== '/session/admin' && signOuts[session] === sentUnder;
    if (sessionEnded) window.dispatchEvent(new Event(SESSION_ENDED));
    throw new ApiError(response.status, message);
  }
  return { data: data as T, headers: response.headers };
}

function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
