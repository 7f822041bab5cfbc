// Liveness and readiness without a key, for probes and scripts waiting for the hub:
//   GET /health   200 {status: pass, database} while the database answers; 503 {status: error, message} otherwise
import type { FastifyInstance } from 'fastify';
import type { HubDeps } from '../hub-deps.ts';
import { route, sendError, sendJson } from '../http.ts';

export function registerHealthRoutes(app: FastifyInstance, deps: HubDeps): void {
  route(app, '/health', {
    GET: async (_request, reply) => {
      try {
        await deps.db.query('SELECT 1');
      } catch {
        return sendError(reply, 503, 'database not available');
      }
      return sendJson(reply, 200, { status: 'pass', database: deps.db.kind });
    },
  });
}
