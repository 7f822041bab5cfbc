// Liveness, readiness and metrics, on the control port, without the management secret:
//   GET /<health_check_endpoint_name> (default /hello): always 200 while the process runs, with the store's health
//   GET /ready: 200 once a reload succeeded and the store answers; 503 with the reason otherwise (before the first
//       load, store down, shutting down). Its body lists load problems (definitions that could not be served).
//   GET <metrics_path> (default /metrics): Prometheus text format
import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from './deps.ts';
import { route, sendJson } from './http.ts';

export const VERSION = 'v0.1.0';

export function registerHealthRoutes(app: FastifyInstance, deps: AdminDeps): void {
  route(app, `/${deps.config.health_check_endpoint_name}`, {
    GET: async (_request, reply) => {
      const started = Date.now();
      const storeUp = await deps.store.ping().catch(() => false);
      return sendJson(reply, 200, {
        status: storeUp ? 'pass' : 'fail',
        version: VERSION,
        description: 'gw gateway',
        details: { store: { status: storeUp ? 'pass' : 'fail', componentType: 'datastore', type: deps.store.kind, time: new Date(started).toISOString() } },
      });
    },
  });
  route(app, '/ready', {
    GET: async (_request, reply) => {
      const { ready, shuttingDown, lastLoad } = deps.status();
      const storeUp = await deps.store.ping().catch(() => false);
      const problem = shuttingDown
        ? 'Gateway is shutting down'
        : !storeUp
          ? 'Store connection not available'
          : !ready
            ? 'A successful API reload did not happen'
            : undefined;
      if (problem) return sendJson(reply, 503, { status: 'error', message: problem });
      return sendJson(reply, 200, {
        status: 'pass',
        description: 'gw gateway ready',
        details: { loaded_at: lastLoad?.at, apis: lastLoad?.apis, policies: lastLoad?.policies, problems: lastLoad?.problems ?? [] },
      });
    },
  });
  if (deps.config.metrics_path) {
    route(app, deps.config.metrics_path, {
      GET: async (_request, reply) => {
        const { text, contentType } = await deps.metricsText();
        return reply.type(contentType).send(text);
      },
    });
  }
}
