// The response phase: the ONE place a proxied request's response head is written. Every answer — the upstream's
// (proxy/forward.ts), a mock's (middleware/mock-reply.ts), an error (error-reply.ts) — is handed here as a
// ResponseHead; the API's response steps edit it in order, then it is written. Also the one place that tells an
// `Expect: 100-continue` client to send its body (continueBody).
//
// Bodies stream: a streamed answer gets a sink (today the client's response itself, so the hot path pays nothing)
// and writes its chunks there. When body transforms arrive, an API whose response steps need the body gets a
// buffering sink instead (which writes the head, with the transformed body's length, at its end); that choice is
// made here and nowhere else, and callers already speak only to the sink.
//
// Must never: write a head anywhere else, wait (it is synchronous: a response step decides from what the request
// phase already knows), or let a failing response step send a half-edited head (the request fails instead).
import type { ServerResponse } from 'node:http';
import type { ProxyContext, ResponseHead } from './contract.ts';

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

/** Where a streamed body goes. */
export type BodySink = Pick<ServerResponse, 'write' | 'end'>;

/**
 * Starts a streamed answer: runs the response steps, writes the head, returns the sink for the body. Undefined
 * when a response step failed: the response is already destroyed and the caller must stop (abort its upstream).
 */
export function beginResponse(ctx: ProxyContext, head: ResponseHead): BodySink | undefined {
  if (!runResponseSteps(ctx, head)) return undefined;
  ctx.res.writeHead(head.status, head.headers);
  return ctx.res;
}

/** A complete answer (a mock, an error): response steps, head, body. */
export function respond(res: ServerResponse, head: ResponseHead, body: string | Buffer): void {
  const ctx = contextOf(res);
  if (ctx && !runResponseSteps(ctx, head)) return;
  res.writeHead(head.status, head.headers);
  res.end(body);
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
