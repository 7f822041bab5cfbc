// The last request step of an API with streams (instead of the upstream): after the API's authentication, rate
// limits and quotas, a request under the listen path reaches the stream endpoint it names —
//   input  http_server.path       publish: the body (at most max_request_body_size, else 1 MiB) is one message;
//                                 200 once the output has it, 503 when its broker did not take it in time;
//                                 422 naming the processor when one failed on it (processors.ts);
//                                 a method outside allowed_verbs 405;
//   output http_server.stream_path subscribe: Server-Sent Events (or raw lines) until either side closes;
//   output http_server.ws_path     subscribe over WebSocket (an upgrade request; 426 otherwise); the API's response
//                                 steps edit the 101 as any answer (response-phase.ts: switchingProtocolsHead),
//                                 the handshake's own headers staying the handshake's;
// and any other path 404. Runtimes come from the gateway's StreamRegistry at compile time, so a recompiled API
// whose stream is unchanged serves the same runtime (and its subscribers) as before.
import { validateHeaderName, validateHeaderValue, type IncomingMessage } from 'node:http';
import { WebSocketServer } from 'ws';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { ProxyContext, Step } from '../pipeline/contract.ts';
import { writeError } from '../pipeline/error-reply.ts';
import { withRequestBody } from '../pipeline/request-body.ts';
import { beginResponse, respond, switchingProtocolsHead } from '../pipeline/response-phase.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { ProcessorFailure } from './processors.ts';
import { SseSubscriber } from './sse-subscriber.ts';
import type { StreamRuntime } from './stream-runtime.ts';
import { WsSubscriber } from './ws-subscriber.ts';
import type { StepDescriptor } from '../pipeline/step.ts';

const DEFAULT_MESSAGE_BYTES = 1024 * 1024;

export const StreamMessages = {
  noEndpoint: 'no stream endpoint at this path',
  wrongMethod: 'method not allowed on this stream endpoint',
  notTaken: 'the stream output did not take the message',
  processorFailed: 'the stream pipeline failed on the message',
  full: 'this stream has its maximum number of subscribers',
  upgradeRequired: 'this stream endpoint is a WebSocket: send an upgrade request',
} as const;

type Endpoint = { kind: 'publish' | 'events' | 'websocket'; runtime: StreamRuntime };

/** Upgrades for every WebSocket subscriber; frames larger than this from a client close its socket. */
const webSockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
/** Header lines the response steps gave each handshake being accepted (added when ws writes its 101). */
const handshakeLines = new WeakMap<IncomingMessage, string[]>();
webSockets.on('headers', (lines: string[], req: IncomingMessage) => {
  lines.push(...(handshakeLines.get(req) ?? []));
  handshakeLines.delete(req);
});
/** Headers only the handshake sets (and framing a 101 has none of). */
const HANDSHAKE_HEADERS = new Set([
  'upgrade',
  'connection',
  'sec-websocket-accept',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'content-length',
  'transfer-encoding',
]);

/** A head's headers as `Name: value` lines; throws (like writeHead) on a name or value that cannot be sent. */
function headerLines(headers: Record<string, string | string[] | number | undefined>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HANDSHAKE_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) {
      validateHeaderName(name);
      validateHeaderValue(name, one);
      lines.push(`${name}: ${one}`);
    }
  }
  return lines;
}

export function streamEndpoints(spec: ApiSpec, services: PipelineServices): Step {
  const endpoints = new Map<string, Endpoint>();
  for (const stream of spec.streams ?? []) {
    const runtime = services.streams.acquire(stream);
    if (runtime.httpInput) endpoints.set(runtime.httpInput.path, { kind: 'publish', runtime });
    if (runtime.httpOutput?.stream_path) endpoints.set(runtime.httpOutput.stream_path, { kind: 'events', runtime });
    if (runtime.httpOutput?.ws_path) endpoints.set(runtime.httpOutput.ws_path, { kind: 'websocket', runtime });
  }
  const maxBytes = services.config.max_request_body_size > 0 ? services.config.max_request_body_size : DEFAULT_MESSAGE_BYTES;
  const hideGenerator = services.config.hide_generator_header;
  const refuse = (ctx: ProxyContext, status: number, message: string): true => {
    writeError(ctx.req, ctx.res, status, message, { hideGenerator });
    return true;
  };

  return (ctx) => {
    const endpoint = endpoints.get(ctx.relPath);
    if (!endpoint) return refuse(ctx, 404, StreamMessages.noEndpoint);
    const { runtime } = endpoint;
    if (endpoint.kind === 'publish') {
      if (!runtime.httpInput!.allowed_verbs.includes(ctx.method)) return refuse(ctx, 405, StreamMessages.wrongMethod);
      return withRequestBody(ctx, maxBytes, hideGenerator, (body) =>
        runtime.publish(body).then(
          () => {
            respond(ctx.res, { status: 200, headers: { 'content-length': 0 }, origin: 'upstream' }, '');
            return true;
          },
          (error: unknown) => {
            if (error instanceof ProcessorFailure) return refuse(ctx, 422, `${StreamMessages.processorFailed}: ${error.message}`);
            services.metrics.streamDropped(ctx.api.spec.id, runtime.definition.streamId, 'publish_refused');
            ctx.api.log.warn({ api_id: ctx.api.spec.id, stream: runtime.definition.streamId, err: (error as Error).message }, 'stream publish failed');
            return refuse(ctx, 503, StreamMessages.notTaken);
          },
        ),
      );
    }
    if (ctx.method !== 'GET') return refuse(ctx, 405, StreamMessages.wrongMethod);
    const subscribers = runtime.subscribers!;
    if (endpoint.kind === 'websocket') {
      const upgrade = ctx.upgrade;
      if (!upgrade) return refuse(ctx, 426, StreamMessages.upgradeRequired);
      if (subscribers.full) return refuse(ctx, 503, StreamMessages.full);
      const head = switchingProtocolsHead(ctx);
      if (!head) return true; // a response step failed: the connection is gone
      let lines: string[];
      try {
        lines = headerLines(head.headers);
      } catch (error) {
        ctx.api.log.error({ api_id: ctx.api.spec.id, err: (error as Error).message }, 'response step set a header a handshake cannot carry');
        ctx.res.destroy();
        return true;
      }
      ctx.upgrade = undefined;
      handshakeLines.set(ctx.req, lines);
      webSockets.handleUpgrade(ctx.req, upgrade.socket, upgrade.head, (socket) => {
        subscribers.add(new WsSubscriber(socket, upgrade.socket));
      });
      return true;
    }
    if (subscribers.full) return refuse(ctx, 503, StreamMessages.full);
    const eventSource = runtime.httpOutput!.stream_format === 'event_source';
    const sink = beginResponse(ctx, {
      status: 200,
      headers: {
        'content-type': eventSource ? 'text/event-stream; charset=utf-8' : 'application/octet-stream',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        connection: 'close',
      },
      origin: 'upstream',
    });
    if (!sink) return true;
    // The first bytes: the client sees the head, and knows it is subscribed, at once.
    if (eventSource) sink.write(Buffer.from(': subscribed\n\n'));
    subscribers.add(new SseSubscriber(ctx.res, sink, eventSource));
    return true;
  };
}

/** The last step of an API with streams (x-gw-streaming): its stream endpoints instead of the upstream. */
export const streamsStep: StepDescriptor = {
  name: 'streams',
  enabledFor: (api) => api.streams !== undefined,
  build: (api, services) => ({ request: streamEndpoints(api, services) }),
};
