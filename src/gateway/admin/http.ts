// The management API's HTTP conventions, in one place: every error is an AdminError (status + message), sent as
// {"status":"error","message":...}; successes are JSON with the anchor's trailing newline; a known path with an
// unknown method answers 405 `Method not supported`; bodies are parsed here so a malformed one is always 400
// `Request malformed: ...` (the anchor answers 500) and a wrongly-typed field names itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeIssues } from '../definition/compile.ts';

export class AdminError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'AdminError';
    this.status = status;
  }
}

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(`${JSON.stringify(body)}\n`);
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

/** The request body as JSON; 400 when it is missing or not JSON. */
export function jsonBody(request: FastifyRequest): unknown {
  const text = typeof request.body === 'string' ? request.body : '';
  if (text.trim() === '') throw new AdminError(400, 'Request malformed: the body is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AdminError(400, `Request malformed: ${(error as Error).message}`);
  }
}

/** Parses a JSON body with a schema; 400 naming the offending fields. */
export function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S, what: string): z.output<S> {
  const body = jsonBody(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AdminError(400, `Request malformed: ${what} must be a JSON object`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new AdminError(400, `Request malformed: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name] ?? '';
}

export function queryFlag(request: FastifyRequest, name: string): boolean {
  const value = (request.query as Record<string, string | undefined>)[name];
  return value === '1' || value === 'true';
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Registers a path with a handler per method; other methods get 405. */
export function route(app: FastifyInstance, path: string, handlers: Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>): void {
  app.all(path, async (request, reply) => {
    const handler = handlers[request.method as keyof typeof handlers];
    if (!handler) return sendError(reply, 405, 'Method not supported');
    return handler(request, reply);
  });
}
