// The last step of a GraphQL API for WebSocket upgrades (subscriptions): after the request steps let the handshake
// through (authentication, access rights, the subprotocol check of middleware/validation/graphql.ts), the same request goes to
// the upstream with `Connection: Upgrade`; when the upstream answers 101 its head goes to the client through the
// response phase and the two sockets are piped both ways until either side closes. When it refuses (any other
// status) its answer is relayed (body bounded) and the client's connection closed. Frames are passed through
// unread: the subprotocol (graphql-transport-ws or graphql-ws) is the client's and the upstream's business.
// Upstream TLS: default verification only (the API's upstream client certificates and pins are not applied here).
// Other requests pass on (false) to forwardUpstream.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import type { ProxyContext, ResponseHead, Step } from '../pipeline/contract.ts';
import { Messages, writeError } from '../pipeline/error-reply.ts';
import { respond } from '../pipeline/response-phase.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { upstreamHeaders } from './forward.ts';
import { targetSelectorOf, type TargetSelector } from './target-selection.ts';
import type { StepDescriptor } from '../pipeline/step.ts';
import { keepUpgradedSocket } from './upgrade.ts';

/** Most bytes of a refused upgrade's body relayed to the client. */
const MAX_REFUSAL_BYTES = 64 * 1024;

export function upgradeTunnel(services: PipelineServices, nextTarget: TargetSelector): Step {
  const timeoutMs = services.config.proxy_default_timeout * 1000;
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const upgrade = ctx.upgrade;
    if (!upgrade) return false;
    const client = upgrade.socket;
    const spec = ctx.api.spec;
    const target = nextTarget(ctx.version!);
    if (!target) return false; // every host down (uptime tests): the forwarding step answers the 503
    const origin = new URL(target.origin);
    const headers = upstreamHeaders(
      ctx,
      spec.preserveHostHeader ? (ctx.req.headers.host ?? target.host) : target.host,
      services.trustedProxies.trusts(ctx.req.socket.remoteAddress),
    );
    headers.push('connection', 'Upgrade', 'upgrade', 'websocket');
    const request = (origin.protocol === 'https:' ? httpsRequest : httpRequest)({
      host: origin.hostname,
      port: origin.port || (origin.protocol === 'https:' ? 443 : 80),
      method: ctx.method,
      path: `${target.basePath}${ctx.upstreamPath ?? (spec.stripListenPath ? ctx.relPath : ctx.path) + ctx.query}`,
      headers,
      timeout: timeoutMs,
    });
    const fail = (status: number, message: string): void => {
      request.destroy();
      writeError(ctx.req, ctx.res, status, message, { hideGenerator });
    };
    request.once('upgrade', (answer: IncomingMessage, upstream: Duplex, upstreamHead: Buffer) =>
      accept(ctx, client, upgrade.head, answer, upstream, upstreamHead),
    );
    request.once('response', (answer: IncomingMessage) => relayRefusal(ctx, answer));
    request.once('timeout', () => fail(504, Messages.hardTimeout));
    request.once('error', () => {
      if (!ctx.res.headersSent) fail(500, Messages.proxyFailed);
    });
    client.once('close', () => request.destroy());
    request.end();
    return true;
  };
}

function accept(ctx: ProxyContext, client: Duplex, clientHead: Buffer, answer: IncomingMessage, upstream: Duplex, upstreamHead: Buffer): void {
  keepUpgradedSocket(client);
  const head: ResponseHead = { status: 101, headers: { ...answer.headers }, origin: 'upstream' };
  ctx.res.once('finish', () => {
    ctx.res.detachSocket(client as Parameters<typeof ctx.res.detachSocket>[0]);
    if (upstreamHead.length > 0) client.write(upstreamHead);
    if (clientHead.length > 0) upstream.write(clientHead); // frames the client sent right behind its handshake
    upstream.pipe(client);
    client.pipe(upstream);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
    };
    upstream.once('close', close).once('error', close);
    client.once('close', close).once('error', close);
  });
  respond(ctx.res, head, '');
}

function relayRefusal(ctx: ProxyContext, answer: IncomingMessage): void {
  const chunks: Buffer[] = [];
  let size = 0;
  answer.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_REFUSAL_BYTES) chunks.push(chunk);
  });
  answer.once('end', () => {
    const body = Buffer.concat(chunks);
    const headers: ResponseHead['headers'] = { ...answer.headers, 'content-length': body.length };
    delete headers['transfer-encoding'];
    delete headers.connection;
    respond(ctx.res, { status: answer.statusCode ?? 502, headers, origin: 'upstream' }, body);
  });
}

export const graphqlSubscriptionsStep: StepDescriptor = {
  name: 'graphql-subscriptions',
  enabledFor: (api) => api.graphql !== undefined,
  build: (api, services) => ({ request: upgradeTunnel(services, targetSelectorOf(api, services.uptime)) }),
};
