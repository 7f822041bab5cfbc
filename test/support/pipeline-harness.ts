// The gateway's request pipeline in process, for unit tests of its steps: API definitions (Classic or OAS, as the
// management API stores them) are loaded the way the gateway loads them (loader.ts: the store, then compileApi and
// compileRoute, policies included) and served by the gateway's own ProxyHandler on an HTTP server that never
// listens: each request goes over an in-memory socket pair (node:stream duplexPair), so the handler, the response
// phase and `Expect`/keep-alive handling are the real ones, and no port, control plane or other process is needed.
// The upstream is a stand-in dispatcher (the connection pool the forward step asks for): it records what it
// received — method, path, headers, body — and answers as the test says.
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duplexPair, type Readable } from 'node:stream';
import { pino } from 'pino';
import type { Dispatcher } from 'undici';
import type { Session } from '../../src/domain/session.ts';
import { createClientServer } from '../../src/gateway/client-connections.ts';
import { GatewayConfigSchema, type GatewayConfig } from '../../src/gateway/config.ts';
import { passwordGuard, VerifiedPasswords } from '../../src/gateway/credentials/basic-passwords.ts';
import { BCRYPT_COST, BcryptPool } from '../../src/http/bcrypt-pool.ts';
import { JwksCache } from '../../src/gateway/credentials/jwks-cache.ts';
import { EventBus } from '../../src/gateway/events.ts';
import { loadRoutes } from '../../src/gateway/loader.ts';
import { GatewayMetrics } from '../../src/gateway/metrics.ts';
import type { PipelineServices } from '../../src/gateway/pipeline/services.ts';
import { ProxyHandler } from '../../src/gateway/proxy/handler.ts';
import { TrustedProxies } from '../../src/gateway/proxy/trusted-proxies.ts';
import { storageIdOf } from '../../src/gateway/session/keys.ts';
import { SessionCache } from '../../src/gateway/session/session-cache.ts';
import { StorageIds } from '../../src/gateway/session/storage-ids.ts';
import { EmbeddedStore } from '../../src/gateway/store/embedded.ts';
import type { StoredApi, StoredPolicy } from '../../src/gateway/store/store.ts';
import { StreamRegistry } from '../../src/gateway/streams/stream-registry.ts';

export interface HarnessRequest {
  method?: string;
  /** Path and query, as on the request line. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The peer address the gateway sees (default 127.0.0.1). */
  clientAddress?: string;
}

/** What the upstream received. */
export interface UpstreamView {
  method: string;
  path: string;
  /** Lower-case names; a repeated header's values in order. */
  headers: Record<string, string | string[]>;
  body: string;
}

export interface UpstreamReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface HarnessAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the upstream received for this request; undefined when the pipeline answered before it. */
  upstream: UpstreamView | undefined;
}

export interface HarnessOptions {
  apis: StoredApi[];
  policies?: StoredPolicy[];
  /** Gateway configuration (gw.json fields) over the defaults. */
  config?: Record<string, unknown>;
  /** How the upstream answers (default 200 `upstream`, text/plain). */
  upstream?: (received: UpstreamView) => UpstreamReply;
  now?: () => number;
}

/** A Classic definition as the management API stores it: keyless unless `extra` says otherwise. */
export function classicDefinition(id: string, extra: Record<string, unknown> = {}): StoredApi {
  return {
    id,
    format: 'classic',
    definition: {
      name: id,
      api_id: id,
      org_id: 'org1',
      active: true,
      use_keyless: true,
      proxy: { listen_path: `/${id}/`, target_url: 'http://upstream.test', strip_listen_path: true },
      ...extra,
    },
  };
}

export class PipelineHarness {
  readonly config: GatewayConfig;
  readonly store: EmbeddedStore;
  readonly metrics = new GatewayMetrics();
  readonly #services: PipelineServices;
  readonly #handler: ProxyHandler;
  readonly #server: Server;
  readonly #bcrypt: BcryptPool;
  readonly #dir: string;
  #policies = new Map<string, StoredPolicy>();
  #received: UpstreamView | undefined;

  private constructor(options: HarnessOptions) {
    this.#dir = mkdtempSync(join(tmpdir(), 'gw-pipeline-'));
    this.config = GatewayConfigSchema.parse({ secret: 'harness-secret', ...options.config, storage: { path: this.#dir } });
    const log = pino({ level: 'silent' });
    const now = options.now ?? Date.now;
    this.store = EmbeddedStore.open(this.#dir, {});
    this.#bcrypt = new BcryptPool({ size: 1, queue: 16 });
    const upstream = options.upstream ?? (() => ({}));
    const sessions = new SessionCache(this.store, (id) => this.#policies.get(id), {
      ttlMs: this.config.local_session_cache.cached_session_timeout * 1000,
      now,
    });
    this.#handler = new ProxyHandler(log, this.metrics, this.config.hide_generator_header);
    this.#services = {
      config: this.config,
      store: this.store,
      sessions,
      storageIds: new StorageIds(),
      events: new EventBus(log, this.metrics, []),
      metrics: this.metrics,
      pools: { get: () => recordingUpstream(upstream, (view) => (this.#received = view)) },
      trustedProxies: new TrustedProxies(this.config.trusted_proxies),
      jwks: new JwksCache(() => undefined),
      passwords: new VerifiedPasswords(this.#bcrypt, now, passwordGuard(this.config.basic_auth_checks)),
      certificates: { fingerprintOf: () => undefined },
      streams: new StreamRegistry(this.metrics, log),
      log,
      now,
      handOff: this.#handler.handOff,
    };
    this.#server = createClientServer(this.config.client_connections, this.#handler.handle, log);
    this.#server.on('checkContinue', this.#handler.handleExpectingContinue);
  }

  static async start(options: HarnessOptions): Promise<PipelineHarness> {
    const harness = new PipelineHarness(options);
    for (const api of options.apis) await harness.store.putApi(api);
    for (const policy of options.policies ?? []) await harness.store.putPolicy(policy);
    await harness.reload();
    return harness;
  }

  /** Loads the stored definitions again, as a gateway reload does; throws on a definition the gateway would not serve. */
  async reload(): Promise<void> {
    const { table, policies, problems } = await loadRoutes(this.store, this.#services);
    if (problems.length > 0) throw new Error(`definitions not served: ${JSON.stringify(problems)}`);
    this.#policies = policies;
    this.#handler.use(table);
  }

  /** Stores a key as the management API does (a basic-auth password bcrypt-hashed); the quota starts afresh. */
  async addKey(key: string, session: Session): Promise<void> {
    const password = session.basic_auth_data;
    const stored =
      password && !password.hash_type
        ? { ...session, basic_auth_data: { password: await this.#bcrypt.hash(password.password, BCRYPT_COST), hash_type: 'bcrypt' as const } }
        : session;
    const storageId = storageIdOf(key, this.config.hash_keys);
    await this.store.putKey(storageId, stored, { resetCounters: true });
    this.#services.sessions.invalidate(storageId);
  }

  /** One request through the pipeline, on a connection of its own. */
  request(req: HarnessRequest): Promise<HarnessAnswer> {
    this.#received = undefined;
    const [client, server] = duplexPair();
    Object.defineProperty(server, 'remoteAddress', { value: req.clientAddress ?? '127.0.0.1' });
    this.#server.emit('connection', server);
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          createConnection: () => client,
          method: req.method ?? 'GET',
          path: req.path,
          headers: { host: 'gateway.test', ...(body ? { 'content-length': String(body.length) } : {}), ...req.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            client.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), upstream: this.#received });
          });
          res.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  /** The `gw_step_duration_seconds` sample count of one step (how many requests it ran on). */
  async stepRuns(step: string): Promise<number> {
    const text = await this.metrics.registry.getSingleMetricAsString('gw_step_duration_seconds');
    const line = text.split('\n').find((l) => l.startsWith(`gw_step_duration_seconds_count{step="${step}"}`));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  }

  async close(): Promise<void> {
    this.#server.close();
    await this.#services.streams.close();
    await this.#bcrypt.close();
    await this.store.close();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

/** A connection pool stand-in: reads the whole request, reports what it received, answers as `reply` says. */
function recordingUpstream(reply: (received: UpstreamView) => UpstreamReply, report: (received: UpstreamView) => void): Dispatcher {
  const dispatch = (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
    let aborted = false;
    const controller = {
      aborted: false,
      paused: false,
      reason: null,
      abort(reason: Error) {
        aborted = true;
        handler.onResponseError?.(controller, reason);
      },
      pause() {},
      resume() {},
    } as unknown as Dispatcher.DispatchController;
    handler.onRequestStart?.(controller, {});
    void readBody(options.body).then((body) => {
      if (aborted) return;
      const received: UpstreamView = { method: options.method, path: options.path, headers: headerRecord(options.headers), body: body.toString('utf8') };
      report(received);
      const answer = reply(received);
      const payload = Buffer.from(answer.body ?? 'upstream');
      const headers = { 'content-type': 'text/plain', 'content-length': String(payload.length), ...answer.headers };
      handler.onResponseStart?.(controller, answer.status ?? 200, headers, 'OK');
      if (aborted) return;
      if (payload.length > 0) handler.onResponseData?.(controller, payload);
      if (!aborted) handler.onResponseEnd?.(controller, {});
    });
    return true;
  };
  return { dispatch } as unknown as Dispatcher;
}

async function readBody(body: Dispatcher.DispatchOptions['body']): Promise<Buffer> {
  if (body === null || body === undefined) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body) || body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function headerRecord(headers: Dispatcher.DispatchOptions['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    const prior = out[key];
    out[key] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  };
  if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), String(headers[i + 1]));
  else if (headers) for (const [name, value] of Object.entries(headers)) if (value !== undefined) for (const v of [value].flat()) add(name, String(v));
  return out;
}
