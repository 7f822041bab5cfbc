// Server spans of a management API's writes (the gateway's /gw/ API, the dashboard's API): one per request of any
// method but GET and HEAD, `<METHOD> <route>` with http.method, http.route and http.status_code, continuing the
// trace context the caller sent — the operator's reconcile (operator/process/tracing.ts), so a `kubectl apply` and
// the write it caused are one trace. Reads (and the change feed's long polls) are not traced.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Span } from './span.ts';
import type { Tracer } from './tracer.ts';

export function traceManagementWrites(app: FastifyInstance, tracer: Tracer): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const route = request.routeOptions.url ?? request.url.split('?')[0]!;
    spans.set(request, tracer.startServerSpan(`${request.method} ${route}`, request.headers, { 'http.method': request.method, 'http.route': route }));
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    span.setAttribute('http.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.fail(`HTTP ${reply.statusCode}`);
    span.end();
  });
}
