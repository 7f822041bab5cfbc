// The last step: the request goes to the upstream and the answer comes back, both bodies streamed, never buffered
// (unless a request step already rewrote the body: ctx.body, sent with its own Content-Length).
// Upstream path: the target's base path + the request path (the listen path removed when strip_listen_path is
// set) + the query, or the target's base path + what a URL rewrite decided (ctx.upstreamPath). Hop-by-hop headers are dropped both ways. X-Forwarded-For/-Proto/-Host say what the gateway
// saw (the peer's address, the listener's scheme, the Host it was sent); only a peer in trusted_proxies may extend
// them (trusted-proxies.ts), and only its RFC 7239 `Forwarded` header is passed on. `Expect` is never forwarded: the gateway answers `100 Continue` itself, just before the
// body is needed (response-phase.ts continueBody). Host is the upstream's unless preserve_host_header. The
// upstream's head goes through the API's response phase (which writes it); its body goes to the sink the phase
// gives back. The endpoint's enforced timeout (hard_timeouts / enforceTimeout, else proxy_default_timeout) bounds
// the wait for the upstream's answer and every pause in its body.
// Every load-balanced target down by the uptime tests (target-selection.ts): 503 `all hosts are down`, plain text.
// Failures, as Tyk answers them: timeout 504 `Upstream service reached hard timeout.`; host lookup 500;
// anything else 500 `There was a problem proxying the request`; a client that hung up aborts the upstream call.
// TLS with the upstream (upstream mTLS, pinning: upstream-tls.ts) fails with 502: a pin mismatch with Tyk's
// `https://<host> certificate public key pinning error. Public keys do not match.`, a refused handshake with
// `There was a problem proxying the request`.
//
// This is the hot path, written against undici's lowest-level API (Pool.dispatch with a handler object): per
// request one handler object and one listener, no promise, no AbortController, no stream wrapper — the difference
// measured about a fifth of gw's per-request CPU (bench/proxy).
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { Transform } from 'node:stream';
import type { UpstreamTarget } from '../definition/version-spec.ts';
import type { BodyCapture } from '../pipeline/body-capture.ts';
import type { ProxyContext, Step } from '../pipeline/contract.ts';
import { endpointRule } from '../pipeline/endpoint-rule.ts';
import { Messages, writeError } from '../pipeline/error-reply.ts';
import { beginResponse, continueBody, respond, type BodySink } from '../pipeline/response-phase.ts';
import type { PipelineServices, UpstreamTls } from '../pipeline/services.ts';
import { TYK_INTERNAL_HEADER } from '../looping/internal-header.ts';
import { PIN_MISMATCH } from './upstream-pinning.ts';
import { ALL_HOSTS_DOWN, targetSelectorOf, type TargetSelector } from './target-selection.ts';
import { upstreamTlsResolver, type UpstreamTlsResolver } from './upstream-tls.ts';
import type { StepDescriptor } from '../pipeline/step.ts';
import { startUpstreamSpan } from '../pipeline/request-span.ts';
import type { Span } from '../../tracing/span.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);
/** Request headers the gateway answers or rewrites itself instead of passing on (Tyk's loop marker: never passed on). */
const REPLACED = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'expect', TYK_INTERNAL_HEADER]);

/** `nextTarget`: the upstream of each request (target-selection.ts); `tlsFor`: the API's upstream TLS setup (upstream-tls.ts), undefined when it has none. */
export function forwardUpstream(services: PipelineServices, nextTarget: TargetSelector, tlsFor?: UpstreamTlsResolver): Step {
  const defaultTimeoutMs = services.config.proxy_default_timeout * 1000;
  const trustedProxies = services.trustedProxies;
  return (ctx) => {
    const spec = ctx.api.spec;
    const version = ctx.version!;
    const target = nextTarget(version);
    if (!target) return allHostsDown(ctx);
    const timeoutMs = endpointRule(version.timeouts, ctx)?.timeoutMs ?? defaultTimeoutMs;
    const replaced = ctx.body;
    const hasBody = replaced !== undefined || ctx.req.headers['content-length'] !== undefined || ctx.req.headers['transfer-encoding'] !== undefined;
    const trusted = trustedProxies.trusts(ctx.req.socket.remoteAddress);
    continueBody(ctx);
    const request: Dispatcher.DispatchOptions = {
      path: `${target.basePath}${ctx.upstreamPath ?? (spec.stripListenPath ? ctx.relPath : ctx.path) + ctx.query}`,
      method: ctx.method,
      headers: upstreamHeaders(ctx, spec.preserveHostHeader ? (ctx.req.headers.host ?? target.host) : target.host, trusted),
      body: ctx.capture ? capturedBody(ctx, ctx.capture, hasBody) : (replaced ?? (hasBody ? ctx.req : null)),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    };
    let span: Span | undefined;
    if (ctx.span && services.tracer) {
      const traced = startUpstreamSpan(services.tracer, ctx, `${target.origin}${request.path}`, request.headers as string[]);
      span = traced.span;
      request.headers = traced.headers;
    }
    const tls = tlsFor?.(target);
    if (tls instanceof Promise) return tls.then((resolved) => dispatchUpstream(services, ctx, target, resolved, request, span));
    return dispatchUpstream(services, ctx, target, tls, request, span);
  };
}

/** Every target's host fails its uptime tests: Tyk's plain-text 503. */
function allHostsDown(ctx: ProxyContext): true {
  respond(
    ctx.res,
    { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': ALL_HOSTS_DOWN.length }, origin: 'error' },
    ALL_HOSTS_DOWN,
  );
  return true;
}

/** Detailed recording: the body sent upstream, copied (bounded) into the capture on its way. */
function capturedBody(ctx: ProxyContext, capture: BodyCapture, hasBody: boolean): Buffer | Transform | null {
  if (ctx.body !== undefined) {
    capture.request(ctx.body);
    return ctx.body;
  }
  return hasBody ? capture.tapRequest(ctx.req) : null;
}

function dispatchUpstream(
  services: PipelineServices,
  ctx: ProxyContext,
  target: UpstreamTarget,
  tls: UpstreamTls | undefined,
  request: Dispatcher.DispatchOptions,
  span: Span | undefined,
): true {
  services.pools.get(target, tls).dispatch(request, new UpstreamExchange(ctx, services.config.hide_generator_header, services.log, span));
  return true;
}

const kExchange = Symbol('gw.upstreamExchange');

interface WithExchange extends ServerResponse {
  [kExchange]?: UpstreamExchange;
}

/** The client went away before the answer was complete: stop the upstream call. */
function onClientClose(this: WithExchange): void {
  const exchange = this[kExchange];
  if (exchange && !this.writableFinished) exchange.abort();
}

function onDrain(this: WithExchange): void {
  this[kExchange]?.resume();
}

class ClientClosed extends Error {
  constructor() {
    super(Messages.clientClosed);
  }
}

/** One upstream call: undici drives it, the answer is written straight into the client's response. */
class UpstreamExchange implements Dispatcher.DispatchHandler {
  readonly #ctx: ProxyContext;
  readonly #hideGenerator: boolean;
  readonly #log: Logger;
  #controller: Dispatcher.DispatchController | undefined;
  #sink: BodySink | undefined;
  readonly #dispatchedAt = Date.now();
  /** The call's client span (tracing on): ended with the answer's end or the failure. */
  readonly #span: Span | undefined;

  constructor(ctx: ProxyContext, hideGenerator: boolean, log: Logger, span: Span | undefined) {
    this.#ctx = ctx;
    this.#span = span;
    this.#hideGenerator = hideGenerator;
    this.#log = log;
  }

  abort(): void {
    this.#controller?.abort(new ClientClosed());
  }

  resume(): void {
    this.#controller?.resume();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    const res = this.#ctx.res as WithExchange;
    if (res.destroyed) {
      controller.abort(new ClientClosed());
      return;
    }
    res[kExchange] = this;
    res.on('close', onClientClose); // emitted once per response: `on` spares the wrapper `once` builds per request
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.#ctx.upstreamLatencyMs = Date.now() - this.#dispatchedAt;
    this.#span?.setAttribute('http.status_code', statusCode);
    this.#sink = beginResponse(this.#ctx, { status: statusCode, headers: responseHeaders(headers), origin: 'upstream' });
    if (!this.#sink) controller.abort(new ClientClosed()); // a response step failed: the response is gone
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#ctx.res.writableEnded) {
      controller.abort(new ClientClosed()); // answered already (a buffered body past its bound): stop the upstream
      return;
    }
    this.#ctx.capture?.response(chunk);
    if (this.#sink && !this.#sink.write(chunk)) {
      controller.pause();
      this.#ctx.res.once('drain', onDrain);
    }
  }

  onResponseEnd(): void {
    this.#span?.end();
    this.#sink?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error & { code?: string }): void {
    if (this.#span) {
      this.#span.fail(error.message);
      this.#span.end();
    }
    const { req, res, api } = this.#ctx;
    if (error instanceof ClientClosed || res.destroyed) return; // nobody to answer
    const code = error.code ?? '';
    const hideGenerator = this.#hideGenerator;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') writeError(req, res, 504, Messages.hardTimeout, { hideGenerator });
    else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') writeError(req, res, 500, Messages.hostLookupFailed, { hideGenerator });
    else if (code === PIN_MISMATCH) {
      this.#log.warn({ api_id: api.spec.id, err: error.message }, 'upstream refused: public key pinning');
      writeError(req, res, 502, error.message, { hideGenerator });
    } else if (isTlsFailure(error)) {
      this.#log.warn({ api_id: api.spec.id, err: error.message, code }, 'upstream TLS handshake failed');
      writeError(req, res, 502, Messages.proxyFailed, { hideGenerator });
    } else {
      this.#log.warn({ api_id: api.spec.id, err: error.message, code }, 'upstream request failed');
      writeError(req, res, 500, Messages.proxyFailed, { hideGenerator });
    }
  }
}

/** A TLS failure with the upstream (certificate refused either way, protocol alert), on the error or its cause. */
function isTlsFailure(error: Error & { code?: string; cause?: unknown }): boolean {
  const cause = error.cause as { code?: unknown } | undefined;
  return [error.code, cause?.code].some(
    (code) => typeof code === 'string' && /^(ERR_SSL_|ERR_TLS_|EPROTO$|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|CERT_)/.test(code),
  );
}

/** `trusted`: the peer is in trusted_proxies and may extend the X-Forwarded-* it sent. */
/** The request headers the upstream receives (flat name, value pairs): hop-by-hop ones dropped, X-Forwarded-* set. */
export function upstreamHeaders(ctx: ProxyContext, host: string, trusted: boolean): string[] {
  const incoming = ctx.req.headers;
  const listed = connectionListed(incoming.connection);
  const out: string[] = ['host', host];
  // A rewritten body (ctx.body) is sent whole: its own Content-Length, the client's framing dropped.
  const rewritten = ctx.body !== undefined;
  if (rewritten) out.push('content-length', String(ctx.body!.length));
  for (const name in incoming) {
    if (HOP_BY_HOP.has(name) || REPLACED.has(name) || listed?.has(name) || (name === 'forwarded' && !trusted)) continue;
    if (rewritten && name === 'content-length') continue;
    const value = incoming[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.push(name, v);
    else out.push(name, value);
  }
  const peer = ctx.req.socket.remoteAddress ?? '';
  const priorChain = trusted ? fieldValue(incoming['x-forwarded-for']) : undefined;
  out.push('x-forwarded-for', priorChain ? `${priorChain}, ${peer}` : peer);
  out.push('x-forwarded-proto', (trusted && fieldValue(incoming['x-forwarded-proto'])) || ('encrypted' in ctx.req.socket ? 'https' : 'http'));
  out.push('x-forwarded-host', (trusted && fieldValue(incoming['x-forwarded-host'])) || (incoming.host ?? ''));
  return out;
}

/** node:http joins repeated fields of these names with ', ' already; typed as possibly an array all the same. */
function fieldValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function responseHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const listed = connectionListed(headers.connection);
  const out: IncomingHttpHeaders = {};
  for (const name in headers) {
    if (name === 'host' || !(HOP_BY_HOP.has(name) || listed?.has(name))) out[name] = headers[name];
  }
  return out;
}

function connectionListed(value: string | string[] | undefined): Set<string> | undefined {
  if (!value) return undefined;
  // The common case (`keep-alive`: a name dropped anyway) builds no set: this runs on every response.
  if (typeof value === 'string' && !value.includes(',')) {
    const token = value.trim().toLowerCase();
    return token === '' || HOP_BY_HOP.has(token) ? undefined : new Set([token]);
  }
  const text = Array.isArray(value) ? value.join(',') : value;
  return new Set(
    text
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The last step of every API without streams (an API with streams answers from its stream endpoints instead). */
export const upstreamStep: StepDescriptor = {
  name: 'upstream',
  enabledFor: (api) => api.streams === undefined,
  build: (api, services) => ({ request: forwardUpstream(services, targetSelectorOf(api, services.uptime), upstreamTlsResolver(api, services)) }),
};
