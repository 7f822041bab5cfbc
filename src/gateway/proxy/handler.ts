// The proxy's request handler: refuse an ambiguous Host (host-header.ts), normalise the path (request-path.ts),
// find the API (router.ts), run its compiled pipeline. Steps run synchronously until one returns a promise, so a
// request whose checks are all answered from memory never waits on a microtask it does not need. Every answer goes
// through the API's response phase (../pipeline/response-phase.ts). The routing table is swapped whole by `use`
// (reload). A step failing because the store is unavailable (Redis down or restarting, store/unavailable.ts) is
// answered 503 with Retry-After; any other failure is ours: 500, logged.
//
// `handleExpectingContinue` is the server's 'checkContinue' listener: the same handling, except that the client
// waits for `100 Continue` before sending its body, and is told so only by the step that needs the body (so a
// request refused by authentication never has its body read).
//
// `loop` runs a request again through an API's pipeline, found by Tyk's looping reference (`self`, api_id or looping
// name; internal APIs included: this is their only way in), for internal looping (../looping/loop-step.ts).
//
// `handleUpgrade` is the server's 'upgrade' listener (WebSocket): the request runs the same pipeline with the
// socket on the context (ctx.upgrade), so authentication and limits apply before a step takes the socket over (a
// GraphQL API's tunnel, proxy/upgrade-tunnel.ts; a stream's WebSocket subscribers, streams/streams-step.ts). Any
// other answer (a refusal, an upstream's answer: the upstream never sees the Upgrade header, a hop-by-hop header)
// is written on the socket as for a plain request, which then closes (upgrade.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../metrics.ts';
import { loopingName, type LoopUrl } from '../looping/loop-url.ts';
import type { CompiledApi, LoopState, ProxyContext } from '../pipeline/contract.ts';
import { Messages, writeError } from '../pipeline/error-reply.ts';
import { bindContext, contextOf } from '../pipeline/response-phase.ts';
import { endRequestSpan, startRequestSpan } from '../pipeline/request-span.ts';
import type { Tracer } from '../../tracing/tracer.ts';
import { StoreUnavailableError } from '../store/unavailable.ts';
import { hasAmbiguousHost } from './host-header.ts';
import { normalizeRequestPath } from './request-path.ts';
import { RoutingTable } from './router.ts';
import { upgradeResponse } from './upgrade.ts';

/** The looping-name table's key: a name is looked up within the looping API's organisation. */
const nameKey = (orgId: string, name: string): string => `${orgId}\u0000${name}`;

export class ProxyHandler {
  #table = new RoutingTable<CompiledApi>([]);
  #byId = new Map<string, CompiledApi>();
  /** Lower-case looping name -> the first API loaded with it (Tyk's fuzzy lookup by name). */
  #byLoopingName = new Map<string, CompiledApi>();
  readonly #log: Logger;
  readonly #hideGenerator: boolean;
  /** One listener function for every response (no closure per request): counts it by API and status, records it. */
  readonly #onFinish: (this: ServerResponse) => void;
  /** OpenTelemetry (opentelemetry.enabled): a server span per request; undefined costs nothing. */
  readonly #tracer: Tracer | undefined;

  /** `recordRequest`: called once each response has been sent (analytics, licensed mode); absent, nothing is recorded. */
  constructor(log: Logger, metrics: GatewayMetrics, hideGenerator: boolean, recordRequest?: (ctx: ProxyContext, status: number) => void, tracer?: Tracer) {
    this.#log = log;
    this.#tracer = tracer;
    this.#hideGenerator = hideGenerator;
    this.#onFinish = recordRequest
      ? function (this: ServerResponse) {
          const ctx = contextOf(this)!;
          metrics.request(ctx.api.spec.id, this.statusCode);
          recordRequest(ctx, this.statusCode);
        }
      : function (this: ServerResponse) {
          metrics.request(contextOf(this)!.api.spec.id, this.statusCode);
        };
  }

  get table(): RoutingTable<CompiledApi> {
    return this.#table;
  }

  /** Swaps the routing table in one assignment: a request sees the old table or the new one, never a mix. */
  use(table: RoutingTable<CompiledApi>): void {
    this.#byId = new Map(table.routes().map((api) => [api.spec.id, api]));
    const byName = new Map<string, CompiledApi>();
    for (const api of table.routes()) {
      const name = loopingName(api.spec.name).toLowerCase();
      const key = nameKey(api.spec.orgId, name);
      if (name && !byName.has(key)) byName.set(key, api);
    }
    this.#byLoopingName = byName;
    this.#table = table;
  }

  /**
   * Runs the rest of a request through another loaded API's pipeline, from its first step (an OAS base API's
   * other version, middleware/routing/version-routing.ts): same request, same paths relative to the base's listen path;
   * the answer and its record are the other API's. False when no API with that id is loaded.
   */
  readonly handOff = (ctx: ProxyContext, apiId: string): boolean => {
    const api = this.#byId.get(apiId);
    if (!api) return false;
    const { version: _version, ...request } = ctx;
    const handed: ProxyContext = { ...request, api, handedOff: true };
    bindContext(handed);
    this.#run(handed, 0);
    return true;
  };

  /**
   * Runs the request again, from the first step, through the pipeline of the API `url` names (`self`: this one), with
   * the loop's path, query and method; same client request (headers, body), so that API's authentication and
   * transforms apply to it. The answer and its record are that API's. False when no loaded API answers to the name.
   */
  readonly loop = (ctx: ProxyContext, url: LoopUrl, state: LoopState): boolean => {
    const api = this.#loopTarget(ctx, url.target);
    if (!api) return false;
    const listenPath = api.listenPath;
    const underListenPath = listenPath !== '/' && (url.path === listenPath || url.path.startsWith(`${listenPath}/`));
    const relPath = underListenPath ? url.path.slice(listenPath.length) || '/' : url.path;
    const looped: ProxyContext = {
      req: ctx.req,
      res: ctx.res,
      api,
      method: url.method ?? ctx.method,
      path: url.path,
      relPath,
      query: url.query,
      ignored: false,
      continuePending: ctx.continuePending,
      ...(ctx.body !== undefined ? { body: ctx.body } : {}),
      ...(ctx.upgrade ? { upgrade: ctx.upgrade } : {}),
      loop: state,
      startedAt: ctx.startedAt,
      ...(ctx.span ? { span: ctx.span } : {}),
    };
    bindContext(looped);
    this.#run(looped, 0);
    return true;
  };

  /** The organisation of the loaded API with this id (PipelineServices.apiOrg). */
  readonly apiOrg = (apiId: string): string | undefined => this.#byId.get(apiId)?.spec.orgId;

  #loopTarget(ctx: ProxyContext, target: string): CompiledApi | undefined {
    if (target.toLowerCase() === 'self') return ctx.api;
    const org = ctx.api.spec.orgId;
    const api = this.#byId.get(target) ?? this.#byLoopingName.get(nameKey(org, loopingName(target).toLowerCase()));
    // Only the looping API's own organisation (names are looked up within it too): Tyk Gateway loops into any
    // loaded API, so one organisation's definition (a rewrite, a target_url, a UDG source) could reach another's
    // internal APIs and endpoints with limits skipped. Another organisation's API answers as a name no API has.
    return api?.spec.orgId === org ? api : undefined;
  }

  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.#start(req, res, false);
  };

  /** The server's 'checkContinue' listener (see the file comment). */
  readonly handleExpectingContinue = (req: IncomingMessage, res: ServerResponse): void => {
    this.#start(req, res, true);
  };

  /** The server's 'upgrade' listener (see the file comment). */
  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    this.#start(req, upgradeResponse(req, socket), false, { socket, head });
  };

  #start(req: IncomingMessage, res: ServerResponse, continuePending: boolean, upgrade?: ProxyContext['upgrade']): void {
    if (hasAmbiguousHost(req.rawHeaders)) {
      writeError(req, res, 400, Messages.duplicateHost, { hideGenerator: this.#hideGenerator });
      return;
    }
    const normalized = normalizeRequestPath(req.url ?? '/');
    if (!normalized.ok) {
      writeError(req, res, 400, normalized.reason, { hideGenerator: this.#hideGenerator });
      return;
    }
    const api = this.#table.match(req.headers.host, normalized.path);
    if (!api) {
      writeError(req, res, 404, Messages.notFound, { hideGenerator: this.#hideGenerator });
      return;
    }
    const listenPath = api.listenPath;
    const relPath = listenPath === '/' ? normalized.path : normalized.path.slice(listenPath.length) || '/';
    const ctx: ProxyContext = {
      req,
      res,
      api,
      method: req.method ?? 'GET',
      path: normalized.path,
      relPath: relPath.startsWith('/') ? relPath : `/${relPath}`,
      query: normalized.query,
      ignored: false,
      continuePending,
      ...(upgrade ? { upgrade } : {}),
      startedAt: Date.now(),
    };
    if (this.#tracer) {
      ctx.span = startRequestSpan(this.#tracer, ctx);
      res.on('finish', endRequestSpan);
    }
    bindContext(ctx);
    res.on('finish', this.#onFinish); // emitted once per response: `on` spares the wrapper `once` builds per request
    this.#run(ctx, 0);
  }

  /**
   * Runs the steps from `from` on; each one's time, until it answers, passes on or fails, goes to its timer. One
   * clock read per step (a step's end is the next one's start): a read costs ~0.15 µs on a virtual machine.
   */
  #run(ctx: ProxyContext, from: number, started = performance.now()): void {
    const { steps, stepTimers } = ctx.api;
    let i = from;
    try {
      for (; i < steps.length; i++) {
        const outcome = steps[i]!(ctx);
        if (outcome === true || outcome === false) {
          const now = performance.now();
          stepTimers[i]!((now - started) / 1000);
          if (outcome) return;
          started = now;
          continue;
        }
        const timer = stepTimers[i]!;
        const next = i + 1;
        const began = started;
        outcome.then(
          (done) => {
            const now = performance.now();
            timer((now - began) / 1000);
            if (!done) this.#run(ctx, next, now);
          },
          (error: unknown) => {
            timer((performance.now() - began) / 1000);
            this.#fail(ctx, error);
          },
        );
        return;
      }
    } catch (error) {
      if (i < steps.length) stepTimers[i]!((performance.now() - started) / 1000);
      this.#fail(ctx, error);
    }
  }

  #fail(ctx: ProxyContext, error: unknown): void {
    if (error instanceof StoreUnavailableError) {
      // Not our fault nor the client's: the store (Redis) is down or restarting. No stack: an outage fails many requests.
      this.#log.warn({ api_id: ctx.api.spec.id, reason: error.message }, 'request refused: the store is unavailable');
      writeError(ctx.req, ctx.res, 503, Messages.storeUnavailable, { hideGenerator: this.#hideGenerator, headers: { 'Retry-After': '1' } });
      return;
    }
    this.#log.error({ api_id: ctx.api.spec.id, err: error instanceof Error ? error.stack : String(error) }, 'request pipeline failed');
    writeError(ctx.req, ctx.res, 500, Messages.proxyFailed, { hideGenerator: this.#hideGenerator });
  }
}
