// The HTTP conventions every service's Fastify app installs once (gateway management API, dashboard, governance
// hub): bodies read as text whatever their content type (each route parses them with json-body.ts, so JSON errors
// are ours to word); the edge check (edge.ts) on every request; one error handler: an HttpError answers its own
// status and message, a body over the limit 413 naming the setting, Fastify's other client errors their 4xx, and
// anything else is logged (stack, method, path: never headers or bodies, which carry credentials) and answered 500
// without detail. The wire shape of an error is the service's own (`sendError`); frameworkErrorsAs gives Fastify's
// pre-routing refusals that shape too (it is a constructor option, so each app passes it to Fastify()).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkAtTheEdge, type EdgeRules } from './edge.ts';
import { HttpError } from './errors.ts';

export interface ServiceConventions {
  /** Writes one error in the service's wire shape. */
  sendError: (reply: FastifyReply, status: number, message: string) => FastifyReply;
  /** The body limit and the setting that holds it, for the 413 message. */
  bodyLimit: { bytes: number; setting: string };
  /** Where unexpected failures are logged, and the service's name in that line. */
  log: { error: (fields: Record<string, unknown>, message: string) => void };
  service: string;
  /** Query parameters checked at the edge for every route (edge.ts). Default none. */
  edge?: EdgeRules;
}

type SendError = ServiceConventions['sendError'];

/**
 * For Fastify's `frameworkErrors` option: its own refusals before any route runs (a URL that is not valid
 * percent-encoding, e.g. an encoded lone surrogate) answered 400 in the service's wire shape too.
 */
export function frameworkErrorsAs(sendError: SendError): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, _request, reply) => {
    void sendError(reply, error.statusCode && error.statusCode < 500 ? error.statusCode : 400, error.message);
  };
}

export function installConventions(app: FastifyInstance, conventions: ServiceConventions): void {
  const { sendError, bodyLimit, log, service } = conventions;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  checkAtTheEdge(app, conventions.edge ?? {});
  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error.status, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(reply, 413, `Request body too large: at most ${bodyLimit.bytes} bytes (${bodyLimit.setting})`);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, error.statusCode, error.message);
    log.error({ err: error.stack, method: request.method, path: request.url.split('?')[0] }, `${service} failed`);
    return sendError(reply, 500, 'Internal error');
  });
}
