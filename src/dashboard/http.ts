// The dashboard API's HTTP conventions, in one place: every refusal is a DashboardError (status + message) sent as
// {"Status":"Error","Message":...}; successes of writes are {"Status":"OK","Message":...,"Meta":...} (the seed's
// shape); bodies are parsed here, so a malformed one is always 400 `Request malformed: ...` and a wrongly-typed
// field is named (`proxy.listen_path: ...`); a known path with an unknown method answers 405.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

export class DashboardError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'DashboardError';
    this.status = status;
  }
}

export const notFound = (what: string): DashboardError => new DashboardError(404, `${what} not found`);

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendJson(reply, status, { Status: 'Error', Message: message });
}

/** The seed's answer to a write: {Status: "OK", Message, Meta}. */
export function sendOk(reply: FastifyReply, message: string, meta: unknown = null): FastifyReply {
  return sendJson(reply, 200, { Status: 'OK', Message: message, Meta: meta });
}

/** The request body as JSON; 400 when it is missing or not JSON. */
export function jsonBody(request: FastifyRequest): unknown {
  const text = typeof request.body === 'string' ? request.body : Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  if (text.trim() === '') throw new DashboardError(400, 'Request malformed: the body is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DashboardError(400, `Request malformed: ${(error as Error).message}`);
  }
}

/** The body as a JSON object (not an array, string or null). */
export function objectBody(request: FastifyRequest, what: string): Record<string, unknown> {
  const body = jsonBody(request);
  if (!isObject(body)) throw new DashboardError(400, `Request malformed: ${what} must be a JSON object`);
  return body;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every issue as `path: message`, the path relative to the body (with a prefix when the object was nested). */
export function describeIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.');
      return `${path || '(root)'}: ${issue.message}`;
    })
    .join('; ');
}

/** Parses a value with a schema; 400 naming the offending fields. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new DashboardError(400, `Request malformed: ${describeIssues(parsed.error, prefix)}`);
  return parsed.data;
}

export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string | undefined>)[name] ?? '';
}

export function query(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Registers a path with a handler per method; other methods get 405. */
export function route(app: FastifyInstance, path: string, handlers: Partial<Record<Method, Handler>>): void {
  app.all(path, async (request, reply) => {
    const handler = handlers[request.method as Method];
    if (!handler) return sendError(reply, 405, 'Method not supported');
    return handler(request, reply);
  });
}

/** Ids that travel in URL paths: 1-128 characters of A-Z a-z 0-9 . _ ~ - */
export function checkId(id: string, field: string): string {
  if (!/^[A-Za-z0-9._~-]{1,128}$/.test(id)) throw new DashboardError(400, `${field}: must be 1-128 characters of A-Z a-z 0-9 . _ ~ -: ${JSON.stringify(id).slice(0, 140)}`);
  return id;
}
