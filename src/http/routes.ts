// Routing by path, then method, the same way in every service: one registration per path with a handler per
// method; any other method answers 405 with an Allow header (the message is the service's: Tyk\'s
// `Method not supported`, or one naming the allowed methods). Plus the small readers of path and query values.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export interface RouteOptions {
  /** The 405 message. Default `method <M> not allowed on <path>: use <allowed>`. */
  methodNotAllowed?: string;
}

export function route(app: FastifyInstance, path: string, handlers: Partial<Record<Method, Handler>>, options: RouteOptions = {}): void {
  const allowed = Object.keys(handlers).join(', ');
  app.all(path, async (request, reply) => {
    const handler = handlers[request.method as Method];
    if (!handler) {
      void reply.header('allow', allowed);
      throw new HttpError('method_not_allowed', options.methodNotAllowed ?? `method ${request.method} not allowed on ${path}: use ${allowed}`);
    }
    return handler(request, reply);
  });
}

/** A path parameter ('' when absent). */
export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string | undefined>)[name] ?? '';
}

/** Every query parameter as Fastify parsed it (a repeated one is a list). */
export function queryOf(request: FastifyRequest): Record<string, string | string[] | undefined> {
  return request.query as Record<string, string | string[] | undefined>;
}

/** The first value of a query parameter. */
export function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = queryOf(request)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `?name=1` or `?name=true`. */
export function queryFlag(request: FastifyRequest, name: string): boolean {
  const value = queryValue(request, name);
  return value === '1' || value === 'true';
}
