// The management client of the open-source gateway (ce mode): /gw/ with header x-gw-authorization.
// Writes are POSTs with the id (the gateway upserts); deletes treat 404 as "nothing to delete"; reload asks the
// whole gateway group (/gw/reload/group). Every call is idempotent, so every call is retried on unavailability
// (3 attempts, 200 ms then 800 ms apart); nothing else is retried.
import { Agent, request, type Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import { MgmtError, type Definition, type ManagementClient } from './client.ts';

export interface GatewayClientOptions {
  url: string;
  secret: string;
  /** Accept a self-signed certificate on an https url. */
  insecureSkipVerify?: boolean;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
  /** Called after every HTTP exchange with its method, status code ("error" when none came) and duration. */
  observe?: (method: string, code: string, durationMs: number) => void;
}

const RETRY_DELAYS_MS = [200, 800];
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CLOSED']);

export class GatewayClient implements ManagementClient {
  readonly mode = 'ce' as const;
  readonly url: string;
  readonly #secret: string;
  readonly #timeoutMs: number;
  readonly #dispatcher: Dispatcher;
  readonly #observe: GatewayClientOptions['observe'];

  constructor(options: GatewayClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.#observe = options.observe;
    this.#secret = options.secret;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#dispatcher = new Agent({ connections: 16, keepAliveTimeout: 10_000, ...(options.insecureSkipVerify ? { connect: { rejectUnauthorized: false } } : {}) });
  }

  getApi(id: string): Promise<Definition | undefined> {
    return this.#get(`/gw/apis/${encodeURIComponent(id)}`);
  }

  async listApis(): Promise<Definition[]> {
    return (await this.#call<Definition[]>('GET', '/gw/apis')) ?? [];
  }

  async putApi(id: string, definition: Definition): Promise<void> {
    await this.#call('POST', '/gw/apis', { ...definition, api_id: id });
  }

  deleteApi(id: string): Promise<boolean> {
    return this.#delete(`/gw/apis/${encodeURIComponent(id)}`);
  }

  getOasApi(id: string): Promise<Definition | undefined> {
    return this.#get(`/gw/apis/oas/${encodeURIComponent(id)}`);
  }

  async listOasApis(): Promise<Definition[]> {
    return (await this.#call<Definition[]>('GET', '/gw/apis/oas')) ?? [];
  }

  async putOasApi(_id: string, document: Definition): Promise<void> {
    await this.#call('POST', '/gw/apis/oas', document);
  }

  deleteOasApi(id: string): Promise<boolean> {
    return this.#delete(`/gw/apis/oas/${encodeURIComponent(id)}`);
  }

  getPolicy(id: string): Promise<Definition | undefined> {
    return this.#get(`/gw/policies/${encodeURIComponent(id)}`);
  }

  async listPolicies(): Promise<Definition[]> {
    return (await this.#call<Definition[]>('GET', '/gw/policies')) ?? [];
  }

  async putPolicy(id: string, policy: Definition): Promise<void> {
    await this.#call('POST', `/gw/policies/${encodeURIComponent(id)}`, { ...policy, id });
  }

  deletePolicy(id: string): Promise<boolean> {
    return this.#delete(`/gw/policies/${encodeURIComponent(id)}`);
  }

  async reload(): Promise<void> {
    await this.#call('GET', '/gw/reload/group');
  }

  async #get(path: string): Promise<Definition | undefined> {
    try {
      return await this.#call<Definition>('GET', path);
    } catch (error) {
      if (error instanceof MgmtError && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  async #delete(path: string): Promise<boolean> {
    try {
      await this.#call('DELETE', path);
      return true;
    } catch (error) {
      if (error instanceof MgmtError && error.kind === 'not_found') return false;
      throw error;
    }
  }

  async #call<T>(method: Dispatcher.HttpMethod, path: string, body?: unknown): Promise<T | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once<T>(method, path, body);
      } catch (error) {
        const retryable = error instanceof MgmtError && error.kind === 'unavailable';
        const delay = RETRY_DELAYS_MS[attempt];
        if (!retryable || delay === undefined) throw error;
        await sleep(delay);
      }
    }
  }

  async #once<T>(method: Dispatcher.HttpMethod, path: string, body: unknown): Promise<T | undefined> {
    let response: Dispatcher.ResponseData;
    const started = performance.now();
    try {
      response = await request(`${this.url}${path}`, {
        method,
        dispatcher: this.#dispatcher,
        headers: { 'x-gw-authorization': this.#secret, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
    } catch (error) {
      this.#observe?.(method, 'error', performance.now() - started);
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const kind = NETWORK_CODES.has(code) ? 'unavailable' : 'failed';
      throw new MgmtError(kind, `gateway at ${this.url} unreachable (${code || (error as Error).message})`, undefined, { cause: error });
    }
    const text = await response.body.text();
    const status = response.statusCode;
    this.#observe?.(method, String(status), performance.now() - started);
    if (status < 300) return (text ? JSON.parse(text) : undefined) as T;
    const message = messageOf(text) ?? `HTTP ${status}`;
    if (status === 404) throw new MgmtError('not_found', message, status);
    if (status === 401 || status === 403) throw new MgmtError('unauthorized', `gateway refused the credentials: ${message}`, status);
    if (status === 409) throw new MgmtError('conflict', message, status);
    if (status === 400 || status === 413 || status === 422) throw new MgmtError('invalid', message, status);
    if (status === 502 || status === 503 || status === 504) throw new MgmtError('unavailable', `gateway at ${this.url} answered ${status}: ${message}`, status);
    throw new MgmtError('failed', `gateway at ${this.url} answered ${status}: ${message}`, status);
  }
}

function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return text.trim() || undefined;
  }
}
