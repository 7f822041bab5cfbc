// One log line per write (any method but GET, HEAD, OPTIONS) a service answers, so a write the operator made can be
// found from its reconcile: the operator sends the reconcile's id as X-Gw-Reconcile-Id and the line carries it as
// `reconcileID` (the operator's own log key). Writes with that header log at info, others at debug (a busy
// dashboard's users would flood the log). The header is taken only when it is a UUID: nothing else reaches the log.
// Method, path (without the query, which may carry credentials), status and the header: never other headers or bodies.
import type { FastifyInstance } from 'fastify';

/** The header the operator sends its reconcile id in. */
export const RECONCILE_ID_HEADER = 'x-gw-reconcile-id';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type LogMethod = (fields: Record<string, unknown>, message: string) => void;

export function logWrites(app: FastifyInstance, log: { info: LogMethod; debug: LogMethod }, service: string): void {
  app.addHook('onResponse', async (request, reply) => {
    if (READS.has(request.method)) return;
    const header = request.headers[RECONCILE_ID_HEADER];
    const reconcileID = typeof header === 'string' && UUID.test(header) ? header : undefined;
    const fields = { method: request.method, path: request.url.split('?')[0], status: reply.statusCode, ...(reconcileID ? { reconcileID } : {}) };
    if (reconcileID) log.info(fields, `${service} write`);
    else log.debug(fields, `${service} write`);
  });
}
