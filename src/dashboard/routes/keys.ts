// /api/keys: the organisation's keys (sessions) (permission `keys`). A key is stored under storageIdOf(key,
// hash_keys) — with hash_keys on, the key itself is shown once, in the answer that creates it, and is nowhere
// afterwards. A key may only grant the organisation's APIs and apply its policies; a new key cannot apply a policy
// in state draft or deny (gw's documented policy states).
//   POST   /api/keys              a key object -> self-managed {action: "create", key, status: "ok"};
//                                 cloud {api_model: {}, key_id: <key>, data: <session>}
//   POST   /api/keys/{key}        the same with a key chosen by the caller
//   GET    /api/keys[?p=]         {keys: [<storage id>], pages} (hashes when hashed)
//   GET    /api/keys?mode=detailed[&q=][&p=]  {keys: [{storage_id, hashed, alias, apply_policies, expires, created_at}],
//                                 pages, total}: gw's list for the web UI; q finds a key (also by its hash), a storage id or
//                                 its start, or an alias's start (case-insensitive); q also filters the plain list
//   GET    /api/keys/{key}        {api_model: {}, key_id: <key>, data: <session>}
//   PUT    /api/keys/{key}        the full key object -> {Status: "OK", Message: "Key updated", Meta: null}
//   DELETE /api/keys/{key}        {Status: "OK", Message: "Key deleted", Meta: null}
// {key} is the key; with ?hashed=true it is the storage id the list shows. A basic_auth_data password is stored as a
// bcrypt hash (key-writes.ts) and answered blank; a blank one written back (a key read, changed and saved, as the web
// UI's key page does) keeps the stored hash.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashKey } from '../../domain/key-hash.ts';
import { Session } from '../../domain/session.ts';
import type { Queryable } from '../../db/database.ts';
import { withoutPassword } from '../../http/basic-auth-data.ts';
import { orgRoute } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { checkId, notFound, objectBody, param, query, sendJson, sendOk } from '../http.ts';
import { checkedSession, createKeyIn, type CreatedKey } from '../key-writes.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { deleteKey, getKey, getKeyByCredential, listKeyIds, listKeySummaries, updateKey, type StoredKey } from '../store/keys.ts';
import { write } from '../store/write.ts';

export function registerKeyRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config } = deps;

  const find = async (tx: Queryable, request: FastifyRequest, orgId: string): Promise<StoredKey> => {
    const key = param(request, 'key');
    const found = query(request, 'hashed') === 'true' ? await getKey(tx, orgId, key) : await getKeyByCredential(tx, orgId, key, hashKey(key));
    if (!found) throw notFound('Key');
    return found;
  };

  const create = async (request: FastifyRequest, orgId: string, chosen: string | undefined): Promise<CreatedKey> => {
    const body = objectBody(request, 'the key');
    const key = chosen === undefined ? undefined : checkId(chosen, 'key');
    const created = await write(db, orgId, { bumpRevision: true }, (tx) => createKeyIn(tx, config, orgId, body, key, deps.hashPassword));
    deps.log.info({ org: orgId, hashed: config.hash_keys }, 'key created');
    return created;
  };
  const answerCreated = (created: CreatedKey): unknown =>
    config.edition === 'cloud'
      ? { api_model: {}, key_id: created.key, data: withoutPassword(created.session) }
      : { action: 'create', key: created.key, status: 'ok' };

  orgRoute(app, '/api/keys', 'keys', {
    GET: async (request, reply, { org }) => {
      const page = pageOf(request, config.page_size);
      const text = query(request, 'q')?.trim().slice(0, 256) ?? '';
      const search = text === '' ? undefined : { text, hash: hashKey(text) };
      if (query(request, 'mode') !== 'detailed' && search === undefined) {
        const { items, total } = await listKeyIds(db, org.id, page);
        return sendJson(reply, 200, { keys: items, pages: pagesOf(total, page) });
      }
      const { items, total } = await listKeySummaries(db, org.id, page, search);
      if (query(request, 'mode') !== 'detailed') return sendJson(reply, 200, { keys: items.map((k) => k.storage_id), pages: pagesOf(total, page) });
      return sendJson(reply, 200, { keys: items, pages: pagesOf(total, page), total });
    },
    POST: async (request, reply, { org }) => sendJson(reply, 200, answerCreated(await create(request, org.id, undefined))),
  });

  orgRoute(app, '/api/keys/:key', 'keys', {
    GET: async (request, reply, { org }) => {
      const found = await find(db, request, org.id);
      return sendJson(reply, 200, { api_model: {}, key_id: param(request, 'key'), data: withoutPassword(found.session) });
    },
    POST: async (request, reply, { org }) => sendJson(reply, 200, answerCreated(await create(request, org.id, param(request, 'key')))),
    PUT: async (request, reply, { org }) => {
      const body = objectBody(request, 'the key');
      await write(db, org.id, { bumpRevision: true }, async (tx) => {
        const found = await find(tx, request, org.id);
        const stored = Session.safeParse(found.session);
        const checked = await checkedSession(tx, org.id, keepingBlankPassword(body, found.session), deps.hashPassword, stored.success ? stored.data : {});
        const created = typeof found.session.date_created === 'string' ? found.session.date_created : undefined;
        await updateKey(tx, { ...found, session: { ...checked, date_created: created, last_updated: new Date().toISOString() } });
      });
      return sendOk(reply, 'Key updated');
    },
    DELETE: async (request, reply, { org }) => {
      await write(db, org.id, { bumpRevision: true }, async (tx) => {
        const found = await find(tx, request, org.id);
        await deleteKey(tx, org.id, found.storage_id);
      });
      return sendOk(reply, 'Key deleted');
    },
  });
}

/** The key as written, its blank basic_auth_data password (as GET answers it) replaced by the stored hash. */
function keepingBlankPassword(body: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const written = body.basic_auth_data;
  const previous = stored.basic_auth_data;
  if (typeof written !== 'object' || written === null || (written as { password?: unknown }).password !== '') return body;
  if (typeof previous !== 'object' || previous === null) return body;
  return { ...body, basic_auth_data: { ...written, ...previous } };
}
