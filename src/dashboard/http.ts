// The dashboard API's wire shapes: every refusal is an HttpError (src/http/errors.ts) sent as
// {"Status":"Error","Message":...}; successes of writes are {"Status":"OK","Message":...,"Meta":...} (gw's documented
// shape). Bodies are parsed with the shared bounded parser (src/http/json-body.ts), so a malformed or too-deep one
// is always 400 `Request malformed: ...` and a wrongly-typed field is named (`proxy.listen_path: ...`); routing and
// the 405 rule are the shared ones (src/http/routes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeIssues } from '../domain/zod-issues.ts';
import { HttpError } from '../http/errors.ts';
import { parseJsonBody, parseJsonObjectBody } from '../http/json-body.ts';
import { route as sharedRoute, type Handler, type Method } from '../http/routes.ts';

export { HttpError } from '../http/errors.ts';
export { param, queryValue as query, type Handler, type Method } from '../http/routes.ts';

export const notFound = (what: string): HttpError => new HttpError('not_found', `${what} not found`);

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendJson(reply, status, { Status: 'Error', Message: message });
}

/** gw's documented answer to a write: {Status: "OK", Message, Meta}. */
export function sendOk(reply: FastifyReply, message: string, meta: unknown = null): FastifyReply {
  return sendJson(reply, 200, { Status: 'OK', Message: message, Meta: meta });
}

/** The request body as JSON; 400 when it is missing, not JSON or too deep. */
export function jsonBody(request: FastifyRequest): unknown {
  return parseJsonBody(request.body);
}

/** The body as a JSON object (not an array, string or null). */
export function objectBody(request: FastifyRequest, what: string): Record<string, unknown> {
  return parseJsonObjectBody(request.body, what);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a value with a schema; 400 naming the offending fields (under `prefix` when the value was nested). */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError('invalid', `Request malformed: ${describeIssues(parsed.error, { prefix })}`);
  return parsed.data;
}

/** Registers a path with a handler per method; other methods get 405 `Method not supported`. */
export function route(app: FastifyInstance, path: string, handlers: Partial<Record<Method, Handler>>): void {
  sharedRoute(app, path, handlers, { methodNotAllowed: 'Method not supported' });
}

/** Ids that travel in URL paths: 1-128 characters of A-Z a-z 0-9 . _ ~ - */
export function checkId(id: string, field: string): string {
  if (!/^[A-Za-z0-9._~-]{1,128}$/.test(id))
    throw new HttpError('invalid', `${field}: must be 1-128 characters of A-Z a-z 0-9 . _ ~ -: ${JSON.stringify(id).slice(0, 140)}`);
  return id;
}
