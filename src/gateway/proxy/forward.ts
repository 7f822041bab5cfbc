// The last step: the request goes to the upstream and the answer comes back, both bodies streamed, never buffered.
// Upstream path: the target's base path + the request path (the listen path removed when strip_listen_path is
// set) + the query. Hop-by-hop headers are dropped both ways; X-Forwarded-For/-Proto/-Host are added; Host is the
// upstream's unless preserve_host_header. The endpoint's enforced timeout (hard_timeouts / enforceTimeout, else
// proxy_default_timeout) bounds the wait for the upstream's answer and every pause in its body.
// Failures, as the anchor answers them: timeout 504 `Upstream service reached hard timeout.`; host lookup 500;
// anything else 500 `There was a problem proxying the request`; a client that hung up aborts the upstream call.
import type { IncomingHttpHeaders } from 'node:http';
import type { Step, ProxyContext } from './context.ts';
import { Messages, writeError } from './error-response.ts';
import type { PipelineServices } from './services.ts';
import { rateLimitHeaderPairs } from '../middleware/rate-limit-headers.ts';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

export function forwardUpstream(services: PipelineServices): Step {
  const defaultTimeoutMs = services.config.proxy_default_timeout * 1000;
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const spec = ctx.api.spec;
    const version = ctx.version!;
    const target = version.overrideTarget ?? spec.target;
    const path = `${target.basePath}${spec.stripListenPath ? ctx.relPath : ctx.path}${ctx.query}`;
    let timeoutMs = defaultTimeoutMs;
    for (const rule of version.timeouts) {
      if (rule.method === ctx.method && rule.pattern.test(ctx.relPath)) {
        timeoutMs = rule.timeoutMs;
        break;
      }
    }
    const abort = new AbortController();
    const onClose = (): void => {
      if (!ctx.res.writableFinished) abort.abort();
    };
    ctx.res.once('close', onClose);
    const hasBody = ctx.req.headers['content-length'] !== undefined || ctx.req.headers['transfer-encoding'] !== undefined;
    return services.pools
      .get(target)
      .stream(
        {
          path,
          method: ctx.method,
          headers: upstreamHeaders(ctx, spec.preserveHostHeader ? (ctx.req.headers.host ?? target.host) : target.host),
          body: hasBody ? ctx.req : null,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: abort.signal,
        },
        ({ statusCode, headers }) => {
          ctx.res.writeHead(statusCode, responseHeaders(headers, ctx));
          return ctx.res;
        },
      )
      .then(() => true)
      .catch((error: NodeJS.ErrnoException) => {
        if (abort.signal.aborted) return true; // the client hung up: nobody to answer
        const code = error.code ?? '';
        if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') writeError(ctx.req, ctx.res, 504, Messages.hardTimeout, { hideGenerator });
        else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') writeError(ctx.req, ctx.res, 500, Messages.hostLookupFailed, { hideGenerator });
        else {
          services.log.warn({ api_id: spec.id, err: error.message, code }, 'upstream request failed');
          writeError(ctx.req, ctx.res, 500, Messages.proxyFailed, { hideGenerator });
        }
        return true;
      })
      .finally(() => ctx.res.off('close', onClose));
  };
}

function upstreamHeaders(ctx: ProxyContext, host: string): string[] {
  const incoming = ctx.req.headers;
  const listed = connectionListed(incoming.connection);
  const out: string[] = ['host', host];
  for (const name in incoming) {
    if (HOP_BY_HOP.has(name) || listed?.has(name) || name === 'x-forwarded-for' || name === 'x-forwarded-proto' || name === 'x-forwarded-host') continue;
    const value = incoming[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.push(name, v);
    else out.push(name, value);
  }
  const client = ctx.req.socket.remoteAddress ?? '';
  const prior = incoming['x-forwarded-for'];
  out.push('x-forwarded-for', prior ? `${Array.isArray(prior) ? prior.join(', ') : prior}, ${client}` : client);
  out.push('x-forwarded-proto', (incoming['x-forwarded-proto'] as string | undefined) ?? ('encrypted' in ctx.req.socket ? 'https' : 'http'));
  out.push('x-forwarded-host', (incoming['x-forwarded-host'] as string | undefined) ?? incoming.host ?? '');
  return out;
}

function responseHeaders(headers: IncomingHttpHeaders, ctx: ProxyContext): IncomingHttpHeaders {
  const listed = connectionListed(headers.connection);
  const out: IncomingHttpHeaders = {};
  for (const name in headers) {
    if (name === 'host' || !(HOP_BY_HOP.has(name) || listed?.has(name))) out[name] = headers[name];
  }
  for (const [name, value] of rateLimitHeaderPairs(ctx.rateLimitHeaders)) out[name.toLowerCase()] = value;
  return out;
}

function connectionListed(value: string | string[] | undefined): Set<string> | undefined {
  if (!value) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  return new Set(text.split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
}
