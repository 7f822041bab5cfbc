// The request body in memory, for the steps that must see it before the upstream does (basic-auth credentials from
// the body, body transforms): read once, at most `maxBytes`, and kept on the context (ctx.body), so a later step
// reads the same bytes and the upstream is sent them (forward.ts) instead of the client's stream, which is spent.
// Sends `100 Continue` first when the client is waiting for it. Over the limit it keeps nothing more, but reads and
// discards up to DRAIN_BYTES more before answering 'too_large' (the caller writes its own 413, Connection: close):
// a client still sending when the connection closes gets a reset instead of the 413 (the race nginx's lingering
// close exists for), so one that overshoots by a little finishes sending and reads the answer; one that overshoots
// by more is cut at once.
// withRequestBody is that read for a step: 413 `Request is too large` (Connection: close) over the limit, else the
// step's own decision on the bytes.
import type { ProxyContext } from './contract.ts';
import { Messages, writeError } from './error-reply.ts';
import { continueBody } from './response-phase.ts';

/** Reads the body (at most maxBytes) and hands it to `decide`; over the limit answers 413 and returns true. */
export function withRequestBody(
  ctx: ProxyContext,
  maxBytes: number,
  hideGenerator: boolean,
  decide: (body: Buffer) => boolean | Promise<boolean>,
): boolean | Promise<boolean> {
  const body = readRequestBody(ctx, maxBytes);
  if (body === 'too_large') return refuseTooLarge(ctx, hideGenerator);
  if (Buffer.isBuffer(body)) return decide(body);
  return body.then((read) => (read === 'too_large' ? refuseTooLarge(ctx, hideGenerator) : decide(read)));
}

/** 413 `Request is too large`, closing the connection: the rest of the body is never read. */
export function refuseTooLarge(ctx: ProxyContext, hideGenerator: boolean): true {
  writeError(ctx.req, ctx.res, 413, Messages.bodyTooLarge, { hideGenerator, headers: { connection: 'close' } });
  return true;
}

/** How much past the limit a body is still read (and discarded) so that its client can read the 413. */
const DRAIN_BYTES = 64 * 1024;

export function readRequestBody(ctx: ProxyContext, maxBytes: number): Buffer | 'too_large' | Promise<Buffer | 'too_large'> {
  if (ctx.body !== undefined) return ctx.body.length > maxBytes ? 'too_large' : ctx.body;
  if (Number(ctx.req.headers['content-length'] ?? 0) > maxBytes) return 'too_large';
  continueBody(ctx);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const req = ctx.req;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes + DRAIN_BYTES) {
        req.off('data', onData).off('end', onEnd).off('error', onError);
        req.pause();
        resolve('too_large');
        return;
      }
      if (size > maxBytes)
        chunks.length = 0; // over: nothing is kept, the rest is only drained
      else chunks.push(chunk);
    };
    const onEnd = () => {
      if (size > maxBytes) {
        resolve('too_large');
        return;
      }
      ctx.body = Buffer.concat(chunks, size);
      resolve(ctx.body);
    };
    const onError = (error: Error) => reject(error);
    req.on('data', onData).once('end', onEnd).once('error', onError);
  });
}
