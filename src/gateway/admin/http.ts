// The management API's wire shapes: every error is an HttpError (src/http/errors.ts), sent as
// {"status":"error","message":...}; successes are JSON with Tyk's trailing newline; a known path with an
// unknown method answers 405 `Method not supported`; bodies are parsed with the shared bounded parser
// (src/http/json-body.ts), so a malformed or too-deep one is always 400 `Request malformed: ...` (Tyk
// answers 500) and a wrongly-typed field names itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeIssues } from '../../domain/zod-issues.ts';
import { HttpError } from '../../http/errors.ts';
import { parseJsonBody, parseJsonObjectBody } from '../../http/json-body.ts';
import { route as sharedRoute, type Handler, type Method } from '../../http/routes.ts';

export { HttpError } from '../../http/errors.ts';
export { param, queryFlag, type Handler } from '../../http/routes.ts';

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .type('application/json')
    .send(`${JSON.stringify(body)}\n`);
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendJson(reply, status, { status: 'error', message });
}

export function ok(reply: FastifyReply, message = ''): FastifyReply {
  return sendJson(reply, 200, { status: 'ok', message });
}

export function modified(reply: FastifyReply, key: string, action: 'added' | 'modified' | 'deleted', extra: Record<string, unknown> = {}): FastifyReply {
  return sendJson(reply, 200, { key, status: 'ok', action, ...extra });
}

/** The request body as JSON; 400 when it is missing, not JSON or too deep. */
export function jsonBody(request: FastifyRequest): unknown {
  return parseJsonBody(request.body);
}

/** Parses a JSON body with a schema; 400 naming the offending fields. */
export function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(parseJsonObjectBody(request.body, what));
  if (!parsed.success) throw new HttpError('invalid', `Request malformed: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** Registers a path with a handler per method; other methods get 405 `Method not supported`. */
export function route(app: FastifyInstance, path: string, handlers: Partial<Record<Method, Handler>>): void {
  sharedRoute(app, path, handlers, { methodNotAllowed: 'Method not supported' });
}
