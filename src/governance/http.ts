// The governance API's HTTP conventions, in one place: JSON responses with a trailing newline; every error is
// {"status":"error","message":...}; bodies are read as text and parsed here, so a malformed one is always 400
// `Request malformed: ...` and an invalid field names itself; a known path with another method answers 405.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeIssues } from './bodies.ts';
import { GovernanceError } from './errors.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(`${JSON.stringify(body)}\n`);
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendJson(reply, status, { status: 'error', message });
}

/** Parses the JSON body with a schema: 400 when it is missing or not JSON, 400 naming each invalid field. */
export function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  const text = typeof request.body === 'string' ? request.body : '';
  if (text.trim() === '') throw new GovernanceError('malformed', 'Request malformed: the body is empty, expected a JSON object');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new GovernanceError('malformed', `Request malformed: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new GovernanceError('malformed', 'Request malformed: the body must be a JSON object');
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new GovernanceError('invalid', describeIssues(parsed.error));
  return parsed.data;
}

export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string | undefined>)[name] ?? '';
}

export function query(request: FastifyRequest): Record<string, string | string[] | undefined> {
  return request.query as Record<string, string | string[] | undefined>;
}

export function queryFlag(request: FastifyRequest, name: string): boolean {
  const value = query(request)[name];
  return value === '1' || value === 'true';
}

/** Registers a path with a handler per method; any other method gets 405 naming the allowed ones. */
export function route(app: FastifyInstance, path: string, handlers: Partial<Record<Method, Handler>>): void {
  const allowed = Object.keys(handlers).join(', ');
  app.all(path, async (request, reply) => {
    const handler = handlers[request.method as Method];
    if (!handler) {
      void reply.header('allow', allowed);
      throw new GovernanceError('method_not_allowed', `method ${request.method} not allowed on ${path}: use ${allowed}`);
    }
    return handler(request, reply);
  });
}
