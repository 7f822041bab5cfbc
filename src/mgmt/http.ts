// The HTTP exchange under every management client (gateway and dashboard): JSON in and out, an auth header, a
// per-request timeout, and the answer mapped to an MgmtError kind. Every call is retried on unavailability
// (connection refused/reset/timed out, 502/503/504: 3 attempts, 200 ms then 800 ms apart) — the clients only make
// idempotent calls — and nothing else is retried. `observe` sees every exchange (metrics). Every call takes an
// optional AbortSignal (the reconcile's): aborting it ends the exchange and any retry wait at once, and a call
// whose signal is already aborted is never sent. A 2xx answer whose body is not JSON is an MgmtError 'failed'
// (a proxy's error page, a truncated body), never a raw SyntaxError. `callHeaders` adds headers computed per call
// (the operator's: X-Gw-Reconcile-Id of the reconcile making it).
import { Agent, request, type Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import { MgmtError, type ChangeCursor, type Definition } from './client.ts';

export interface ManagementHttpOptions {
  url: string;
  /** What the server is called in messages: "gateway", "dashboard". */
  what: string;
  headers: Record<string, string>;
  /** Accept a self-signed certificate on an https url. */
  insecureSkipVerify?: boolean;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
  /** Called after every HTTP exchange with its method, status code ("error" when none came) and duration. */
  observe?: (method: string, code: string, durationMs: number) => void;
  /** Headers computed when each call is sent (the operator's reconcile id), added to `headers`. */
  callHeaders?: () => Record<string, string>;
  /**
   * Traces each HTTP exchange (the operator's OpenTelemetry client span under its reconcile span): called as it is
   * sent, its headers (the trace context) added, `end` told the status code ("error" when none came).
   */
  trace?: (method: string, path: string) => CallTrace | undefined;
}

/** One traced exchange (ManagementHttpOptions.trace). */
export interface CallTrace {
  readonly headers: Readonly<Record<string, string>>;
  end(code: string): void;
}

const RETRY_DELAYS_MS = [200, 800];
/** How long one change-feed long poll may wait, in seconds. */
const CHANGE_POLL_SECONDS = 25;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** A request body sent as it is, as text/plain, instead of as JSON. */
export class PlainText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export class ManagementHttp {
  readonly url: string;
  readonly #o: ManagementHttpOptions;
  readonly #timeoutMs: number;
  readonly #dispatcher: Dispatcher;

  constructor(options: ManagementHttpOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.#o = options;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#dispatcher = new Agent({
      connections: 16,
      keepAliveTimeout: 10_000,
      ...(options.insecureSkipVerify ? { connect: { rejectUnauthorized: false } } : {}),
    });
  }

  /** GET that answers undefined for 404. */
  async get<T = Definition>(path: string, signal?: AbortSignal): Promise<T | undefined> {
    try {
      return await this.call<T>('GET', path, undefined, signal);
    } catch (error) {
      if (error instanceof MgmtError && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  /** DELETE that answers whether something was deleted (404: false). */
  async delete(path: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.call('DELETE', path, undefined, signal);
      return true;
    } catch (error) {
      if (error instanceof MgmtError && error.kind === 'not_found') return false;
      throw error;
    }
  }

  /** `body`: JSON, or a PlainText sent as text/plain (a PEM certificate). */
  async call<T>(method: Dispatcher.HttpMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<T | undefined> {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        return await this.#once<T>(method, path, body, signal);
      } catch (error) {
        const retryable = error instanceof MgmtError && error.kind === 'unavailable';
        const delay = RETRY_DELAYS_MS[attempt];
        if (!retryable || delay === undefined) throw error;
        await sleep(delay, undefined, signal ? { signal } : {});
      }
    }
  }

  /**
   * One long poll of the change feed at `path` (ManagementClient.waitForChange): after `cursor` it may wait up to
   * CHANGE_POLL_SECONDS (its timeout is that plus the per-request one; no retry); without one it answers at once.
   * A 404 (no change feed there) answers undefined.
   */
  async waitForChange(path: string, cursor: ChangeCursor | undefined, signal?: AbortSignal): Promise<ChangeCursor | undefined> {
    signal?.throwIfAborted();
    const query = cursor ? `?since=${cursor.version}&epoch=${encodeURIComponent(cursor.epoch)}&timeout=${CHANGE_POLL_SECONDS}` : '?since=0&timeout=0';
    try {
      return await this.#once<ChangeCursor>('GET', `${path}${query}`, undefined, signal, CHANGE_POLL_SECONDS * 1000 + this.#timeoutMs);
    } catch (error) {
      if (error instanceof MgmtError && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  async #once<T>(
    method: Dispatcher.HttpMethod,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    timeoutMs = this.#timeoutMs,
  ): Promise<T | undefined> {
    let response: Dispatcher.ResponseData;
    const started = performance.now();
    const what = this.#o.what;
    const callHeaders = this.#o.callHeaders?.() ?? {};
    const traced = this.#o.trace?.(method, path.split('?')[0]!);
    try {
      response = await request(`${this.url}${path}`, {
        method,
        dispatcher: this.#dispatcher,
        ...(signal ? { signal } : {}),
        headers: {
          ...this.#o.headers,
          ...callHeaders,
          ...traced?.headers,
          ...(body !== undefined ? { 'content-type': body instanceof PlainText ? 'text/plain' : 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: body instanceof PlainText ? body.text : JSON.stringify(body) } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      this.#o.observe?.(method, 'error', performance.now() - started);
      traced?.end('error');
      if (signal?.aborted) throw signal.reason;
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const kind = NETWORK_CODES.has(code) ? 'unavailable' : 'failed';
      throw new MgmtError(kind, `${what} at ${this.url} unreachable (${code || (error as Error).message})`, undefined, { cause: error });
    }
    const text = await response.body.text();
    const status = response.statusCode;
    this.#o.observe?.(method, String(status), performance.now() - started);
    traced?.end(String(status));
    if (status < 300) return parseAnswer<T>(text, `${what} at ${this.url} answered ${method} ${path} with ${status}`);
    const message = messageOf(text) ?? `HTTP ${status}`;
    if (status === 404) throw new MgmtError('not_found', message, status);
    if (status === 401 || status === 403) throw new MgmtError('unauthorized', `${what} refused the credentials: ${message}`, status);
    if (status === 409) throw new MgmtError('conflict', message, status);
    if (status === 400 || status === 413 || status === 422) throw new MgmtError('invalid', message, status);
    if (status === 502 || status === 503 || status === 504) throw new MgmtError('unavailable', `${what} at ${this.url} answered ${status}: ${message}`, status);
    throw new MgmtError('failed', `${what} at ${this.url} answered ${status}: ${message}`, status);
  }
}

/** The JSON of a 2xx answer; a body that is not JSON is a typed failure naming what answered, not a SyntaxError. */
function parseAnswer<T>(text: string, exchange: string): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    const excerpt = text.trim().slice(0, 80);
    throw new MgmtError('failed', `${exchange} but its body is not JSON${excerpt ? `: ${JSON.stringify(excerpt)}` : ''}`);
  }
}

/** The message of an error body: the gateway's {message}, the dashboard's {Message}, or the text itself. */
function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown; Message?: unknown };
    if (typeof body.message === 'string') return body.message;
    return typeof body.Message === 'string' ? body.Message : undefined;
  } catch {
    return text.trim() || undefined;
  }
}
