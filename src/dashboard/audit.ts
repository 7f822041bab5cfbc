// The audit log: every successful write of the org API (/api: POST, PUT, PATCH, DELETE answered 2xx) is recorded
// by this one hook, after the route ran and before the answer leaves (so a client that got its answer finds the
// entry): who (the user and their e-mail), what (an action, the object's type and id), when, and from where (the
// client's address, through an access key or a web UI session). Never a body: a key is recorded by its SHA-256
// (as the key list shows hashed keys), never itself. Read back through GET /api/audit (routes/audit.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashKey } from '../domain/key-hash.ts';
import { callerOf } from './access.ts';
import type { DashboardDeps } from './deps.ts';
import { objectId } from './ids.ts';
import { insertAuditEntry } from './store/audit.ts';

/** Object types by route prefix (the longest first wins); otherwise the path's segment after /api. */
const OBJECT_TYPES: [prefix: string, type: string][] = [
  ['/api/portal/policies', 'policy'],
  ['/api/portal/developers', 'developer'],
  ['/api/portal', 'portal'],
  ['/api/apis', 'api'],
  ['/api/import', 'api'],
  ['/api/keys', 'key'],
  ['/api/users', 'user'],
  ['/api/usergroups', 'user_group'],
  ['/api/certs', 'certificate'],
];

/** POSTs that change nothing. */
const NOT_WRITES = new Set(['/api/portal/developers/verify_credentials']);

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function objectTypeOf(pattern: string): string {
  return OBJECT_TYPES.find(([prefix]) => pattern === prefix || pattern.startsWith(`${prefix}/`))?.[1] ?? pattern.split('/')[2] ?? 'unknown';
}

export function actionOf(method: string, pattern: string): string {
  if (pattern.endsWith('/actions/key/reset')) return 'key reset';
  if (pattern.endsWith('/actions/reset')) return 'password set';
  if (pattern.endsWith('/governance-labels')) return 'labels applied';
  if (method === 'DELETE') return 'deleted';
  if (method === 'POST') return pattern.startsWith('/api/import/') ? 'imported' : 'created';
  return 'updated';
}

const asKeyId = (key: string, hashed: boolean): string => (hashed ? key : hashKey(key));

/** The written object's id: the path's, else the answer's (a created object's); a key always hashed. */
export function objectIdOf(type: string, params: Record<string, string>, hashedParam: boolean, payload: unknown): string {
  if (params.id !== undefined) return params.id;
  if (params.key !== undefined) return asKeyId(params.key, hashedParam);
  if (params.email !== undefined) return params.email;
  let answer: Record<string, unknown>;
  try {
    answer = typeof payload === 'string' ? (JSON.parse(payload) as Record<string, unknown>) : {};
  } catch {
    return '';
  }
  if (type === 'key') {
    const key = answer.key ?? answer.key_id;
    return typeof key === 'string' ? asKeyId(key, false) : '';
  }
  const meta = answer.Meta;
  if (typeof meta === 'string') return meta;
  if (typeof meta === 'object' && meta !== null && typeof (meta as { id?: unknown }).id === 'string') return (meta as { id: string }).id;
  if (type === 'policy' && typeof answer.Message === 'string') return answer.Message; // Tyk answers a new policy's id here
  return typeof answer.id === 'string' ? answer.id : '';
}

export function registerAudit(app: FastifyInstance, deps: DashboardDeps): void {
  app.addHook('onSend', async (request: FastifyRequest, reply, payload) => {
    const pattern = request.routeOptions.url ?? '';
    if (!WRITE_METHODS.has(request.method) || !pattern.startsWith('/api/') || NOT_WRITES.has(pattern)) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const caller = callerOf(request);
    if (!caller) return payload;
    const type = objectTypeOf(pattern);
    const hashed = (request.query as Record<string, unknown> | undefined)?.hashed === 'true';
    try {
      await insertAuditEntry(deps.db, {
        id: objectId(),
        org_id: caller.org.id,
        user_id: caller.user.id,
        user_email: caller.user.email_address,
        action: actionOf(request.method, pattern),
        object_type: type,
        object_id: objectIdOf(type, request.params as Record<string, string>, hashed, payload).slice(0, 256),
        client_ip: request.ip,
        via: typeof request.headers.authorization === 'string' && request.headers.authorization !== '' ? 'access key' : 'web session',
      });
    } catch (error) {
      deps.log.error({ err: error instanceof Error ? error.message : String(error), org: caller.org.id }, 'audit entry not recorded');
    }
    return payload;
  });
}
