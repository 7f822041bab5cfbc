// The governance API's wire shapes: JSON responses with a trailing newline; every error is
// {"status":"error","message":...}. Bodies are parsed with the shared bounded parser (src/http/json-body.ts), so a
// malformed or too-deep one is always 400 `Request malformed: ...` and an invalid field names itself; routing and
// the 405 rule are the shared ones (src/http/routes.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeIssues } from '../domain/zod-issues.ts';
import { HttpError } from '../http/errors.ts';
import { parseJsonObjectBody } from '../http/json-body.ts';

export { param, queryFlag, queryOf as query, route } from '../http/routes.ts';

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(`${JSON.stringify(body)}\n`);
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendJson(reply, status, { status: 'error', message });
}

/** Parses the JSON body with a schema: 400 when it is missing, not JSON or too deep, 400 naming each invalid field. */
export function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  const parsed = schema.safeParse(parseJsonObjectBody(request.body, 'the body'));
  if (!parsed.success) throw new HttpError('invalid', describeIssues(parsed.error, { root: '(body)' }));
  return parsed.data;
}
