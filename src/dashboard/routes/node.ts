// The node API: what gateways in licensed mode load (header x-gw-node-secret).
//   GET /system/node/config[?org_id=<id>]
//     200 {version, apis: [{id, org_id, format: "classic"|"oas", definition}], policies: [{...policy, id, org_id}],
//          keys: [{storage_id, hashed, session}], certs: [{id, pem}]}, header ETag: "<version>"
//     (certs: the certificate store, private keys included: what the gateway serves by SNI, presents upstream and
//     matches client certificates against; the node secret guards them like the keys)
//     304 when If-None-Match names the current version (gateways poll cheaply)
// version is the SHA-256 hex of the canonical JSON of {apis, policies, keys, certs}: equal content, equal version, across
// restarts and dashboard processes. Everything is included, inactive APIs too (the gateway decides what it routes),
// sorted by id. Without org_id (a gateway serving every organisation) ids one organisation shares with another
// are made unique (node-ids.ts) and a key value several organisations hold is served for the oldest only (logged).
// The answer is cached per org_id filter until the revision counter (bumped by every write of APIs, policies, keys
// and certificates, store/write.ts) moves, so a poll with nothing new costs one single-row query, and a poll after
// a change sends the cached bytes: the snapshot is serialised (and encoded) once per revision, and gateways polling
// at the same moment share one build instead of each rereading and reserialising everything.
import type { FastifyInstance } from 'fastify';
import { contentHash } from '../../domain/canonical-json.ts';
import type { DashboardDeps } from '../deps.ts';
import { query, route } from '../http.ts';
import { allApis } from '../store/apis.ts';
import { allCerts } from '../store/certs.ts';
import { allKeys } from '../store/keys.ts';
import { allPolicies } from '../store/policies.ts';
import { revision } from '../store/write.ts';
import { oneIdSpace, oneKeyPerStorageId, type NodeContent } from './node-ids.ts';

interface Snapshot {
  revision: string;
  version: string;
  /** The JSON answer, UTF-8 encoded once. */
  body: Buffer;
}

const MAX_CACHED_FILTERS = 1000;

export function registerNodeRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;
  /** Per org_id filter: the snapshot of one revision, built or being built. */
  const cache = new Map<string, { revision: string; snapshot: Promise<Snapshot> }>();

  const snapshot = async (orgId: string | undefined): Promise<Snapshot> => {
    const current = await revision(db);
    const key = orgId ?? '';
    const cached = cache.get(key);
    if (cached?.revision === current) return cached.snapshot;
    const entry = { revision: current, snapshot: build(orgId, current) };
    if (cache.size >= MAX_CACHED_FILTERS) cache.clear();
    cache.set(key, entry);
    entry.snapshot.catch(() => cache.get(key) === entry && cache.delete(key));
    return entry.snapshot;
  };

  const build = async (orgId: string | undefined, current: string): Promise<Snapshot> => {
    const [apis, policies, keys, certs] = await Promise.all([allApis(db, orgId), allPolicies(db, orgId), allKeys(db, orgId), allCerts(db, orgId)]);
    const rows: NodeContent = {
      apis: apis.map((api) => ({ id: api.id, org_id: api.org_id, format: api.format, definition: api.definition })),
      policies: policies.map((p) => ({ ...p.policy, id: p.id, org_id: p.org_id })),
      keys: keys.map((k) => ({ storage_id: k.storage_id, org_id: k.org_id, hashed: k.hashed, session: k.session })),
    };
    const served = orgId === undefined ? oneIdSpace(rows) : rows;
    if (orgId === undefined) {
      const { shadowedOrgs } = oneKeyPerStorageId(rows.keys);
      if (shadowedOrgs.size > 0)
        deps.log.warn(
          { orgs: [...shadowedOrgs] },
          'keys of these organisations share their value with an older key of another organisation: gateways serving every organisation serve the older key only',
        );
    }
    // Certificate ids are org id + fingerprint: unique across organisations already.
    const content = {
      ...served,
      keys: served.keys.map((k) => ({ storage_id: k.storage_id, hashed: k.hashed, session: k.session })),
      certs: certs.map((c) => ({ id: c.id, pem: c.pem })),
    };
    const version = contentHash(content);
    return { revision: current, version, body: Buffer.from(JSON.stringify({ version, ...content })) };
  };

  route(app, '/system/node/config', {
    GET: async (request, reply) => {
      const orgId = query(request, 'org_id');
      const { version, body } = await snapshot(orgId === '' ? undefined : orgId);
      const etag = `"${version}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.code(200).type('application/json; charset=utf-8').send(body);
    },
  });
}

/** If-None-Match: a list of entity tags (weak ones compare equal, RFC 9110 §13.1.2) or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
