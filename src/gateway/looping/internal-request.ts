// Requests the gateway makes to its own APIs, as Tyk Gateway's internal data sources do (a UDG data source whose URL is
// `tyk://<api name or id>/<path>`: Tyk's round tripper serves it in memory against the named API): a request built
// here, not the client's (the data source's method, path, headers and body), run through the named API's whole
// pipeline by loop dispatch (proxy/handler.ts `loop`: internal APIs included, their only way in) with no network
// hop: node:http writes the request to, and parses the answer from, one end of an in-memory stream pair
// (stream.duplexPair) whose other end is handed to a private http.Server that listens nowhere. The request is one
// loop deeper than the request that made it (loop-step.ts nextState): a UDG API reaching itself stops at the loop
// limit, Tyk's `Loop level too deep`. Answers are read up to `maxBytes` within `timeoutMs`.
import { Server, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { duplexPair, type Duplex } from 'node:stream';
import type { ProxyContext } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { LoopMessages, nextState } from './loop-step.ts';
import type { LoopUrl } from './loop-url.ts';

export interface InternalInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  /** The UDG call counter of the client's request, carried into the internal request (LoopState.udgCalls). */
  udgCalls?: { made: number };
}

export interface InternalAnswer {
  status: number;
  body: Buffer;
}

/** Why an internal request got no answer: too deep, too slow, too large. */
export class InternalRequestError extends Error {}

/** Sends one internal request on behalf of `origin` (the request being served, whose loop depth it continues). */
export type InternalCaller = (origin: ProxyContext, url: LoopUrl, init: InternalInit) => Promise<InternalAnswer>;

/** The gateway's internal caller, or undefined where nothing dispatches loops (a pipeline built without a handler). */
export function internalCaller(services: PipelineServices): InternalCaller | undefined {
  const loop = services.loop;
  if (!loop) return undefined;
  const hideGenerator = services.config.hide_generator_header;
  const pending = new WeakMap<Duplex, (req: IncomingMessage, res: ServerResponse) => void>();
  const server = new Server((req, res) => {
    const run = pending.get(req.socket);
    if (run) run(req, res);
    else res.destroy();
  });

  return (origin, url, init) => {
    const state = { ...nextState(origin.loop, url), ...(init.udgCalls ? { udgCalls: init.udgCalls } : {}) };
    if (state.depth > state.limit) return Promise.reject(new InternalRequestError(LoopMessages.tooDeep(state.limit)));
    const method = url.method ?? init.method;
    const [outside, inside] = duplexPair();
    pending.set(inside, (req, res) => {
      const looped: ProxyContext = {
        req,
        res,
        api: origin.api,
        method,
        path: url.path,
        relPath: url.path,
        query: url.query,
        ignored: false,
        continuePending: false,
        loop: state,
        startedAt: Date.now(),
      };
      if (!loop(looped, url, state)) writeError(req, res, 500, LoopMessages.targetUnknown, { hideGenerator });
    });
    server.emit('connection', inside);
    return new Promise<InternalAnswer>((resolve, reject) => {
      const done = (error?: Error) => {
        outside.destroy();
        inside.destroy();
        if (error) reject(error);
      };
      const request = httpRequest(
        {
          createConnection: () => outside,
          method,
          path: url.path + url.query,
          headers: { ...init.headers, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) },
          signal: AbortSignal.timeout(init.timeoutMs),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > init.maxBytes) done(new InternalRequestError(`the answer is larger than ${init.maxBytes} bytes`));
            else chunks.push(chunk);
          });
          response.on('end', () => {
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks, size) });
            done();
          });
          response.on('error', (error) => done(error));
        },
      );
      request.on('error', (error) =>
        done(error.name === 'AbortError' || error.name === 'TimeoutError' ? new InternalRequestError(`no answer within ${init.timeoutMs} ms`) : error),
      );
      request.end(init.body);
    });
  };
}
