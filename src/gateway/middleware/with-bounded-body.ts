// A step that needs the request body in memory (a body transform, a URL rewrite's payload trigger) reads it here:
// at most maxBytes (transform_max_body_bytes), else 413 `Request is too large` with `Connection: close`, without
// reading further (pipeline/request-body.ts reads it once and keeps it as ctx.body for later steps). Synchronous
// when the body is already in memory.
import type { ProxyContext } from '../pipeline/contract.ts';
import { Messages, writeError } from '../pipeline/error-reply.ts';
import { readRequestBody } from '../pipeline/request-body.ts';

/** Runs `next` with the body; returns what a step returns (true: answered). */
export function withBoundedBody(
  ctx: ProxyContext,
  maxBytes: number,
  hideGenerator: boolean,
  next: (body: Buffer) => boolean | Promise<boolean>,
): boolean | Promise<boolean> {
  const tooLarge = (): boolean => {
    writeError(ctx.req, ctx.res, 413, Messages.bodyTooLarge, { hideGenerator, headers: { connection: 'close' } });
    return true;
  };
  const body = readRequestBody(ctx, maxBytes);
  if (body === 'too_large') return tooLarge();
  if (Buffer.isBuffer(body)) return next(body);
  return body.then((read) => (read === 'too_large' ? tooLarge() : next(read)));
}
