// A small Kubernetes API client on undici. Where the cluster is and how to authenticate comes from kubeconfig.ts
// (kubectl's rules); requests, watches, patches and errors are ours (docs/compatibility.md:
// @kubernetes/client-node's informers stop on the first error and its patch helpers default to the wrong content
// type; loading it also costs ~70 MB of RSS).
//
//   - client-side rate limit: a token bucket of `qps` with `burst` (watches are exempt: they are long-lived);
//   - every non-2xx answer becomes a KubeApiError carrying the apiserver's status and reason;
//   - credentials are re-read every minute (rotated service-account tokens, exec plugins);
//   - watch() yields the events of a watch stream; the caller decides what a closed stream means;
//   - every call takes an optional AbortSignal (a reconcile's): an aborted call stops at once, and a call made with
//     an already aborted signal is never sent;
//   - refuseWrites() fences the client (a deposed leader): from then on every write fails with WritesRefusedError
//     before it is sent; reads go on;
//   - unthrottled() is a second client to the same cluster with no rate limit and its own connections (leader
//     election's, as controller-runtime gives it one: a renewal never queues behind reconciles' requests);
//   - observeRequests() sees every answered or failed request, watches included, of this client and its unthrottled
//     twin (client-go's rest_client_requests_total{code,method,host}; code "<error>" when no answer came).
import { Agent, request, type Dispatcher } from 'undici';
import { KubeApiError, WritesRefusedError } from './errors.ts';
import { loadClusterAccess, type ClusterAccess, type Credentials as TlsCredentials } from './kubeconfig.ts';
import type { KubeObject } from './object.ts';
import { apiVersionOf, resourcePath, type ResourceType } from './resource.ts';
import { TokenBucket } from './token-bucket.ts';
import { setTimeout as sleep } from 'node:timers/promises';

export interface KubeClientOptions {
  /** Path of a kubeconfig; default: $KUBECONFIG, ~/.kube/config, then the in-cluster service account. */
  kubeconfig?: string;
  /** Requests per second (watches excluded). Default 100. */
  qps?: number;
  /** Requests allowed at once above qps. Default 200. */
  burst?: number;
  /** Field manager of server-side applies. Default gw-operator. */
  fieldManager?: string;
  /** No client-side rate limit at all (qps and burst ignored). */
  unthrottled?: boolean;
}

export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface ListResult<T extends KubeObject> {
  items: T[];
  resourceVersion: string;
}

type Query = Record<string, string | number | boolean | undefined>;

/** Sees one request: its method, the status code ("<error>" without an answer) and the apiserver's host:port. */
export type RequestObserver = (method: string, code: string, host: string) => void;

/** Per-call options of every request. */
export interface CallOptions {
  /** Aborts the call (a reconcile's signal); an already aborted signal means the call is not sent. */
  signal?: AbortSignal | undefined;
}

interface Credentials {
  dispatcher: Dispatcher;
  /** The TLS material the dispatcher was built with: a change (a renewed exec certificate) builds a new one. */
  tls: string;
  headers: Record<string, string>;
  at: number;
}

const CREDENTIALS_TTL_MS = 60_000;

export class KubeClient {
  readonly server: string;
  readonly fieldManager: string;
  readonly #access: ClusterAccess;
  readonly #bucket: TokenBucket | undefined;
  #credentials: Credentials | undefined;
  #writesRefused: string | undefined;
  readonly #observers: RequestObserver[];
  readonly #host: string;

  private constructor(access: ClusterAccess, options: KubeClientOptions, observers: RequestObserver[] = []) {
    this.#access = access;
    this.server = access.server;
    this.#host = new URL(access.server).host;
    this.#observers = observers;
    this.fieldManager = options.fieldManager ?? 'gw-operator';
    this.#bucket = options.unthrottled ? undefined : new TokenBucket(options.qps ?? 100, options.burst ?? 200);
  }

  static fromKubeconfig(options: KubeClientOptions = {}): KubeClient {
    return new KubeClient(loadClusterAccess(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}), options);
  }

  /** The same cluster and credentials, without a rate limit, on connections of its own; not fenced by this one. */
  unthrottled(): KubeClient {
    return new KubeClient(this.#access, { fieldManager: this.fieldManager, unthrottled: true }, this.#observers);
  }

  /** Calls `observer` after every request of this client and of its unthrottled() twins (metrics). */
  observeRequests(observer: RequestObserver): void {
    this.#observers.push(observer);
  }

  /** Refuses every write from now on (a deposed leader must stop writing at once); `why` goes into the error. */
  refuseWrites(why: string): void {
    this.#writesRefused = why;
  }

  async get<T extends KubeObject>(resource: ResourceType, namespace: string | undefined, name: string, call: CallOptions = {}): Promise<T> {
    return this.request<T>('GET', resourcePath(resource, namespace, name), call);
  }

  async list<T extends KubeObject>(resource: ResourceType, namespace?: string, query: Query = {}, call: CallOptions = {}): Promise<ListResult<T>> {
    const items: T[] = [];
    let resourceVersion: string;
    let continueToken: string | undefined;
    do {
      const page = await this.request<{ items: T[]; metadata: { resourceVersion: string; continue?: string } }>('GET', resourcePath(resource, namespace), {
        ...call,
        query: { ...query, limit: 500, continue: continueToken },
      });
      for (const item of page.items) items.push({ ...item, apiVersion: apiVersionOf(resource), kind: resource.kind });
      resourceVersion = page.metadata.resourceVersion;
      continueToken = page.metadata.continue || undefined;
    } while (continueToken);
    return { items, resourceVersion };
  }

  async create<T extends KubeObject>(resource: ResourceType, object: T, call: CallOptions = {}): Promise<T> {
    return this.request<T>('POST', resourcePath(resource, object.metadata.namespace), { ...call, body: object });
  }

  /** PUT of the whole object; its metadata.resourceVersion makes it conditional (409 when someone wrote first). */
  async replace<T extends KubeObject>(resource: ResourceType, object: T, call: CallOptions = {}): Promise<T> {
    return this.request<T>('PUT', resourcePath(resource, object.metadata.namespace, object.metadata.name), { ...call, body: object });
  }

  async delete(resource: ResourceType, namespace: string | undefined, name: string, call: CallOptions = {}): Promise<void> {
    await this.request('DELETE', resourcePath(resource, namespace, name), call);
  }

  /** JSON merge patch of the object (or of a subresource such as status). */
  async mergePatch<T extends KubeObject>(
    resource: ResourceType,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    subresource?: string,
    call: CallOptions = {},
  ): Promise<T> {
    return this.request<T>('PATCH', resourcePath(resource, namespace, name, subresource), {
      ...call,
      body: patch,
      contentType: 'application/merge-patch+json',
    });
  }

  /** JSON patch (RFC 6902): use `test` operations to make it conditional. */
  async jsonPatch<T extends KubeObject>(
    resource: ResourceType,
    namespace: string | undefined,
    name: string,
    operations: unknown[],
    call: CallOptions = {},
  ): Promise<T> {
    return this.request<T>('PATCH', resourcePath(resource, namespace, name), { ...call, body: operations, contentType: 'application/json-patch+json' });
  }

  /** Server-side apply (force: this manager owns what it applies), of the object or a subresource. */
  async apply<T extends KubeObject>(resource: ResourceType, object: T, subresource?: string, call: CallOptions = {}): Promise<T> {
    return this.request<T>('PATCH', resourcePath(resource, object.metadata.namespace, object.metadata.name, subresource), {
      ...call,
      body: { ...object, apiVersion: apiVersionOf(resource), kind: resource.kind },
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager: this.fieldManager, force: true },
    });
  }

  /** The events of one watch request, until the server ends it, the signal aborts it, or it fails. */
  async *watch<T extends KubeObject>(path: string, query: Query, signal: AbortSignal): AsyncGenerator<WatchEvent<T>> {
    const { dispatcher, headers } = await this.#auth();
    const response = await this.#observed('GET', () =>
      request(`${this.server}${path}${queryString({ ...query, watch: true })}`, {
        method: 'GET',
        headers,
        dispatcher,
        signal,
        headersTimeout: 30_000,
        bodyTimeout: 0, // silence is legitimate on a quiet resource; the reflector's watchdog handles dead streams
      }),
    );
    if (response.statusCode >= 300) throw await apiError(response.statusCode, await response.body.text());
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += (chunk as Buffer).toString('utf8');
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim()) yield JSON.parse(line) as WatchEvent<T>;
      }
    }
  }

  async request<T>(
    method: Dispatcher.HttpMethod,
    path: string,
    options: CallOptions & { query?: Query; body?: unknown; contentType?: string } = {},
  ): Promise<T> {
    const signal = options.signal;
    if (this.#writesRefused !== undefined && method !== 'GET') throw new WritesRefusedError(`${method} ${path} refused: ${this.#writesRefused}`);
    signal?.throwIfAborted();
    const wait = this.#bucket?.reserve() ?? 0;
    if (wait > 0) await sleep(wait, undefined, signal ? { signal } : {});
    const { dispatcher, headers } = await this.#auth();
    signal?.throwIfAborted();
    const response = await this.#observed(method, () =>
      request(`${this.server}${path}${queryString(options.query ?? {})}`, {
        method,
        dispatcher,
        ...(signal ? { signal } : {}),
        headers: {
          ...headers,
          accept: 'application/json',
          ...(options.body !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}),
        },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      }),
    );
    const text = await response.body.text();
    if (response.statusCode >= 300) throw await apiError(response.statusCode, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async #observed(method: string, send: () => Promise<Dispatcher.ResponseData>): Promise<Dispatcher.ResponseData> {
    let code = '<error>';
    try {
      const response = await send();
      code = String(response.statusCode);
      return response;
    } finally {
      for (const observer of this.#observers) observer(method, code, this.#host);
    }
  }

  async #auth(): Promise<Credentials> {
    if (this.#credentials && Date.now() - this.#credentials.at < CREDENTIALS_TTL_MS) return this.#credentials;
    const fresh: TlsCredentials = await this.#access.credentials();
    const tls = [fresh.ca, fresh.cert, fresh.key].map((b) => b?.toString('base64') ?? '').join('|') + `|${fresh.rejectUnauthorized}|${fresh.servername ?? ''}`;
    const previous = this.#credentials;
    const dispatcher =
      previous?.tls === tls
        ? previous.dispatcher
        : new Agent({
            connections: 64,
            connect: {
              ...(fresh.ca ? { ca: fresh.ca } : {}),
              ...(fresh.cert ? { cert: fresh.cert } : {}),
              ...(fresh.key ? { key: fresh.key } : {}),
              ...(fresh.servername ? { servername: fresh.servername } : {}),
              rejectUnauthorized: fresh.rejectUnauthorized,
            },
          });
    if (previous && previous.dispatcher !== dispatcher) void previous.dispatcher.close();
    this.#credentials = { dispatcher, tls, headers: fresh.headers, at: Date.now() };
    return this.#credentials;
  }
}

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function apiError(status: number, text: string): Promise<KubeApiError> {
  try {
    const body = JSON.parse(text) as { reason?: string; message?: string };
    return new KubeApiError(status, body.reason ?? '', body.message ?? text);
  } catch {
    return new KubeApiError(status, '', text || `HTTP ${status}`);
  }
}
