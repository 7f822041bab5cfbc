// The conventions every service installs, on a real in-process Fastify app: typed refusals keep their status and
// message, the edge check runs before any handler, a body over the limit names the setting, an unexpected failure
// is logged and answered 500 without detail, and Fastify's own bad-URL refusal takes the service's shape.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { frameworkErrorsAs, installConventions } from './conventions.ts';
import { HttpError } from './errors.ts';
import { parseJsonBody } from './json-body.ts';
import { route } from './routes.ts';

const sendError = (reply: FastifyReply, status: number, message: string): FastifyReply => reply.code(status).send({ error: message });

let app: FastifyInstance;
let logged: string[];
afterEach(async () => {
  await app.close();
});

function service(): FastifyInstance {
  logged = [];
  app = Fastify({ bodyLimit: 64, frameworkErrors: frameworkErrorsAs(sendError) });
  installConventions(app, {
    sendError,
    bodyLimit: { bytes: 64, setting: 'max_body_bytes' },
    log: { error: (fields, message) => logged.push(`${message} ${String(fields.path)}`) },
    service: 'test API',
    edge: { p: z.string().regex(/^\d{1,3}$/, 'must be a number of at most 3 digits') },
  });
  route(app, '/things/:id', {
    GET: async (request) => ({ id: (request.params as { id: string }).id }),
    POST: async (request) => ({ body: parseJsonBody(request.body) }),
    DELETE: async () => {
      throw new HttpError('conflict', 'thing still in use');
    },
    PUT: async () => {
      throw new Error('secret detail');
    },
  });
  return app;
}

describe('installConventions', () => {
  it('answers an HttpError with its status and message, and an unknown method 405 with Allow', async () => {
    const deleted = await service().inject({ method: 'DELETE', url: '/things/a' });
    expect([deleted.statusCode, deleted.json()]).toEqual([409, { error: 'thing still in use' }]);
    const patched = await app.inject({ method: 'PATCH', url: '/things/a' });
    expect([patched.statusCode, patched.headers.allow, patched.json()]).toEqual([
      405,
      'GET, POST, DELETE, PUT',
      { error: 'method PATCH not allowed on /things/:id: use GET, POST, DELETE, PUT' },
    ]);
  });

  it('checks declared query parameters and every decoded parameter at the edge', async () => {
    expect((await service().inject({ url: '/things/a?p=12' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/things/a?p=99999999999999999999' })).json()).toEqual({
      error: 'query parameter p: must be a number of at most 3 digits',
    });
    expect((await app.inject({ url: '/things/a?p=1&p=2' })).json()).toEqual({ error: 'query parameter p: given 2 times, expected once' });
    expect((await app.inject({ url: '/things/a%00b' })).json()).toEqual({
      error: 'path parameter id: contains a NUL character (\\u0000), which is not allowed',
    });
  });

  it('reads any body as text: a raw NUL byte is refused, an oversized body names the setting', async () => {
    const posted = await service().inject({ method: 'POST', url: '/things/a', headers: { 'content-type': 'text/plain' }, payload: '{"a":[1]}' });
    expect(posted.json()).toEqual({ body: { a: [1] } });
    const nul = await app.inject({ method: 'POST', url: '/things/a', headers: { 'content-type': 'application/json' }, payload: '{"a":"\u0000"}' });
    expect([nul.statusCode, nul.json()]).toEqual([400, { error: 'Request malformed: the body contains a NUL byte' }]);
    const big = await app.inject({
      method: 'POST',
      url: '/things/a',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(100) }),
    });
    expect([big.statusCode, big.json()]).toEqual([413, { error: 'Request body too large: at most 64 bytes (max_body_bytes)' }]);
  });

  it('logs an unexpected failure and answers 500 without its detail', async () => {
    const failed = await service().inject({ method: 'PUT', url: '/things/a?token=x' });
    expect([failed.statusCode, failed.json()]).toEqual([500, { error: 'Internal error' }]);
    expect(logged).toEqual(['test API failed /things/a']);
  });

  it("answers a URL that is not valid percent-encoding 400 in the service's shape", async () => {
    const bad = await service().inject({ url: '/things/%ED%A0%80' });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: "'/things/%ED%A0%80' is not a valid url component" }]);
  });
});
