// The response phase: the ONE place a proxied request's response head is written. Every answer — the upstream's
// (proxy/forward.ts), a mock's (middleware/routing/mock-reply.ts), an error (error-reply.ts) — is handed here as a
// ResponseHead; the API's response steps edit it in order, then it is written. Also the one place that tells an
// `Expect: 100-continue` client to send its body (continueBody).
//
// Bodies stream: a streamed answer gets a sink (the client's response itself, so the hot path pays nothing) and
// writes its chunks there. An answer whose body a response step claims (ResponseStep.body: a response body
// transform on an endpoint it names) gets a buffering sink instead, which holds at most the rewrite's maxBytes
// (beyond: the step answers, the rest is dropped and the caller stops its upstream on seeing the response ended)
// and at its end writes the head, with the rewritten body's Content-Length (framing headers of the original
// dropped), then the body; that choice is made here and nowhere else, and callers speak only to the sink. A request
// whose answer the response cache wants a copy of (ctx.responseCapture) gets its sink wrapped so that the capture
// sees the upstream's own head and bytes, before any step edits them.
//
// Must never: write a head anywhere else, wait (it is synchronous: a response step decides from what the request
// phase already knows), or let a failing response step send a half-edited head (the request fails instead).
import type { ServerResponse } from 'node:http';
import type { ProxyContext, ResponseBodyRewrite, ResponseCapture, ResponseHead } from './contract.ts';

const kContext = Symbol('gw.proxyContext');

interface WithContext extends ServerResponse {
  [kContext]?: ProxyContext;
}

/** Ties a response to its request's context (once, when the handler creates the context). */
export function bindContext(ctx: ProxyContext): void {
  (ctx.res as WithContext)[kContext] = ctx;
}

/** The context of the request this response answers; undefined before routing (400, 404: no API, no steps). */
export function contextOf(res: ServerResponse): ProxyContext | undefined {
  return (res as WithContext)[kContext];
}

/** Where a streamed body goes: `write` false asks the caller to wait for the response's 'drain'. */
export interface BodySink {
  write(chunk: Buffer): boolean;
  end(): void;
}

/**
 * Starts a streamed answer: runs the response steps, writes the head, returns the sink for the body. Undefined
 * when a response step failed: the response is already destroyed and the caller must stop (abort its upstream).
 */
export function beginResponse(ctx: ProxyContext, head: ResponseHead): BodySink | undefined {
  const capture = ctx.responseCapture?.start(head) ? ctx.responseCapture : undefined;
  if (!runResponseSteps(ctx, head)) return undefined;
  const sink = bodySink(ctx, head);
  return capture ? new CapturingSink(sink, capture) : sink;
}

function bodySink(ctx: ProxyContext, head: ResponseHead): BodySink {
  for (const step of ctx.api.responseSteps) {
    const rewrite = step.body?.(ctx, head);
    if (rewrite) return new BufferingSink(ctx, head, rewrite);
  }
  ctx.res.writeHead(head.status, head.headers);
  return ctx.res;
}

/** Hands every chunk to the capture as well as to the client's sink. */
class CapturingSink implements BodySink {
  readonly #inner: BodySink;
  readonly #capture: ResponseCapture;

  constructor(inner: BodySink, capture: ResponseCapture) {
    this.#inner = inner;
    this.#capture = capture;
  }

  write(chunk: Buffer): boolean {
    this.#capture.chunk(chunk);
    return this.#inner.write(chunk);
  }

  end(): void {
    this.#inner.end();
    this.#capture.end();
  }
}

/** Holds one answer's body for a rewrite, then writes head and rewritten body (see the file comment). */
class BufferingSink implements BodySink {
  readonly #ctx: ProxyContext;
  readonly #head: ResponseHead;
  readonly #rewrite: ResponseBodyRewrite;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  #overflowed = false;

  constructor(ctx: ProxyContext, head: ResponseHead, rewrite: ResponseBodyRewrite) {
    this.#ctx = ctx;
    this.#head = head;
    this.#rewrite = rewrite;
  }

  write(chunk: Buffer): boolean {
    if (this.#overflowed) return true;
    this.#bytes += chunk.length;
    if (this.#bytes > this.#rewrite.maxBytes) {
      this.#overflowed = true;
      this.#chunks.length = 0;
      this.#rewrite.tooLarge();
    } else this.#chunks.push(chunk);
    return true;
  }

  end(): void {
    if (this.#overflowed) return;
    const { res, api } = this.#ctx;
    this.#rewrite.rewrite(Buffer.concat(this.#chunks, this.#bytes)).then(
      (body) => {
        if (body === undefined || res.destroyed) return;
        const headers = this.#head.headers;
        delete headers['transfer-encoding'];
        headers['content-length'] = body.length;
        res.writeHead(this.#head.status, headers);
        res.end(body);
      },
      (error: unknown) => {
        api.log.error({ api_id: api.spec.id, err: error instanceof Error ? error.message : String(error) }, 'response body rewrite failed');
        res.destroy();
      },
    );
  }
}

/** A header every answer of this request carries, whichever path answers it (the upstream's, a mock, an error):
 * set on the response before any head is written, which each head then includes (X-Tyk-Trace-Id). */
export function stampAnswerHeader(res: ServerResponse, name: string, value: string): void {
  res.setHeader(name, value);
}

/** A complete answer (a mock, an error): response steps, head, body. */
export function respond(res: ServerResponse, head: ResponseHead, body: string | Buffer): void {
  const ctx = contextOf(res);
  if (ctx && !runResponseSteps(ctx, head)) return;
  ctx?.capture?.response(body);
  res.writeHead(head.status, head.headers);
  res.end(body);
}

/**
 * The head of a 101 the gateway does not write itself (a stream's WebSocket subscriber: the ws library writes the
 * handshake): the response steps edit it like any answer's (rate limit headers, CORS, header transforms), and the
 * caller adds its headers to the handshake's. Undefined when a step failed: the connection is destroyed.
 */
export function switchingProtocolsHead(ctx: ProxyContext): ResponseHead | undefined {
  const head: ResponseHead = { status: 101, headers: {}, origin: 'upstream' };
  return runResponseSteps(ctx, head) ? head : undefined;
}

/**
 * The request body is about to be read: if the client is waiting for `100 Continue`, send it now (once). Called
 * by the step that first needs the body, so a request refused earlier is answered without its body being read.
 */
export function continueBody(ctx: ProxyContext): void {
  if (!ctx.continuePending) return;
  ctx.continuePending = false;
  ctx.res.writeContinue();
}

function runResponseSteps(ctx: ProxyContext, head: ResponseHead): boolean {
  const steps = ctx.api.responseSteps;
  let i = 0;
  try {
    for (; i < steps.length; i++) steps[i]!.head(ctx, head);
    return true;
  } catch (error) {
    ctx.api.log.error({ api_id: ctx.api.spec.id, step: steps[i]!.name, err: error instanceof Error ? error.stack : String(error) }, 'response step failed');
    ctx.res.destroy();
    return false;
  }
}
