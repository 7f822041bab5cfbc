// /gw/keys: keys (sessions).
//   POST /gw/keys/create            generated key; answers gw's documented {action: "create", key, status: "ok"}
//                                   (with `certificate`: the key <org_id><certificate id>, see newKeyFor)
//   POST /gw/keys                   generated key; answers {key, status: "ok", action: "added"}
//   POST /gw/keys/{id}              custom key id (409 when it exists: use PUT to change a key); with
//                                   basic_auth_data, {id} is the username and the key <org_id><username>
//   GET  /gw/keys                   {keys: [...]} (with hash_keys only when enable_hashed_keys_listing)
//   GET  /gw/keys/{id}[?hashed=1]   the key with its policies applied and a live quota_remaining / quota_renews
//   PUT  /gw/keys/{id}[?suppress_reset=1][&hashed=1]   replaces the key; resets its quota unless suppressed
//   DELETE /gw/keys/{id}[?hashed=1] removes the key and its counters
// A key must grant at least one API (directly or through policies); every policy it names must exist and be
// `active` to create a key (`draft` and `deny` refuse new keys). Creating or updating resets the key's quota unless
// an API it grants sets dont_set_quota_on_create / skipQuotaReset. A key with hmac_enabled gets an hmac_string. With hash_keys the key is returned once, at
// creation, with its key_hash; the store only ever holds the hash.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Session } from '../../domain/session.ts';
import { applyPolicies, policyIdsOf, policyState } from '../session/apply-policies.ts';
import { basicAuthKeyName, hashingForKeyWrites, withHashedPassword, withoutPassword } from '../../http/basic-auth-data.ts';
import { withHmacSecret } from '../session/hmac-secret.ts';
import { certificateKey, customKeyProblem, generateKey, hashKey, isOrganisationSessionId, storageIdOf } from '../session/keys.ts';
import type { StoredPolicy } from '../store/store.ts';
import type { AdminDeps } from './deps.ts';
import { HttpError, modified, param, parseBody, queryFlag, route, sendJson } from './http.ts';
import { liveQuota } from './live-quota.ts';

export function registerKeyRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const { config, store } = deps;

  /** The storage id a request names: the key itself, or its hash with ?hashed=1. */
  const storageIdFrom = (request: FastifyRequest): string => {
    const id = param(request, 'id');
    if (queryFlag(request, 'hashed') && !config.hash_keys) throw new HttpError('invalid', 'Key requested by hash but key hashing is not enabled');
    const storageId = queryFlag(request, 'hashed') ? id : storageIdOf(id, config.hash_keys);
    // Organisation sessions are managed through /gw/org/keys only (session/keys.ts).
    if (isOrganisationSessionId(storageId)) throw new HttpError('not_found', 'Key not found');
    return storageId;
  };

  /** A basic-auth password hashed in the bcrypt worker pool; a full pool queue is 503, as for password checks. */
  const hashedForKey = hashingForKeyWrites((plain) => deps.hashPassword(plain));

  /** Validates a key to be written; returns it ready to store, and the APIs it grants. `existing` for updates. */
  const prepare = async (written: Session, existing: Session | undefined, creating: boolean): Promise<{ session: Session; apis: string[] }> => {
    const session = withHmacSecret(await withHashedPassword(written, existing, hashedForKey), existing);
    const ids = policyIdsOf(session);
    const policies = new Map(await Promise.all(ids.map(async (id) => [id, (await deps.findPolicy(id))?.item] as const)));
    const lookup = (id: string): StoredPolicy | undefined => policies.get(id);
    for (const id of ids) {
      const policy = lookup(id);
      if (!policy) throw new HttpError('invalid', `Failed to create key - policy ${id} not found`);
      const state = policyState(policy);
      if (creating && state !== 'active')
        throw new HttpError('invalid', `Failed to create key - policy ${id} is in state ${state}: no new keys can be created`);
    }
    const applied = applyPolicies(session, lookup);
    if (!applied.ok) throw new HttpError('invalid', `Failed to create key - ${applied.error}`);
    if (applied.effective.access.size === 0) throw new HttpError('invalid', 'Failed to create key, keys must have at least one Access Rights record set.');
    const now = new Date(deps.now());
    const expiresIn = Math.max(0, ...ids.map((id) => lookup(id)?.key_expires_in ?? 0));
    return {
      session: {
        ...session,
        ...(creating && !session.expires && expiresIn > 0 ? { expires: Math.floor(deps.now() / 1000) + expiresIn } : {}),
        date_created: existing?.date_created ?? now.toISOString(),
        last_updated: now.toISOString(),
      },
      apis: [...applied.effective.access.keys()],
    };
  };

  /** Writing a key resets its quota unless an API it grants says not to (dont_set_quota_on_create / skipQuotaReset). */
  const resetsQuota = (apis: string[]): boolean => !apis.some((id) => deps.loadedSpec(id)?.dontSetQuotaOnCreate);

  const create = async (key: string, body: Session): Promise<{ storageId: string; extra: Record<string, unknown> }> => {
    const storageId = storageIdOf(key, config.hash_keys);
    if (await store.getKey(storageId)) throw new HttpError('conflict', 'Key already exists');
    const { session, apis } = await prepare(body, undefined, true);
    await store.putKey(storageId, session, { resetCounters: resetsQuota(apis) });
    deps.sessions.invalidate(storageId);
    return { storageId, extra: config.hash_keys ? { key_hash: hashKey(key) } : {} };
  };

  /**
   * A key for a client certificate (`certificate`, use_certificate APIs) is <org_id><certificate id> (Tyk's
   * naming); the certificate must be in the store, and it has one key: a second is refused naming the first.
   */
  const newKeyFor = async (body: Session): Promise<string> => {
    if (body.certificate === undefined) return generateKey(body.org_id);
    if (!body.certificate || !(await store.getCert(body.certificate))) throw new HttpError('invalid', 'Key must be used with an existent certificate');
    const key = certificateKey(body.org_id, body.certificate);
    if (await store.getKey(storageIdOf(key, config.hash_keys)))
      throw new HttpError('conflict', `Failed to create key - Key with given certificate already found:${key}`);
    return key;
  };

  /** An update keeps a certificate key bound to an existing certificate. */
  const checkCertificateUpdate = async (written: Session, existing: Session): Promise<void> => {
    if (existing.certificate === undefined || written.certificate === existing.certificate) return;
    if (!written.certificate) throw new HttpError('invalid', 'Key cannot be used without a certificate');
    if (!(await store.getCert(written.certificate))) throw new HttpError('invalid', 'Key must be used with an existent certificate');
  };

  route(app, '/gw/keys/create', {
    POST: async (request, reply) => {
      const body = parseBody(request, Session, 'the key');
      const key = await newKeyFor(body);
      const { extra } = await create(key, body);
      return sendJson(reply, 200, { action: 'create', key, status: 'ok', ...extra });
    },
  });

  route(app, '/gw/keys', {
    GET: async (_request, reply) => {
      if (config.hash_keys && !config.enable_hashed_keys_listing) {
        throw new HttpError('not_found', 'Hashed key listing is disabled in config (enable_hashed_keys_listing)');
      }
      const keys = (await store.listKeys()).filter((id) => !id.startsWith('org/'));
      return sendJson(reply, 200, { keys });
    },
    POST: async (request, reply) => {
      const body = parseBody(request, Session, 'the key');
      const key = await newKeyFor(body);
      const { extra } = await create(key, body);
      return modified(reply, key, 'added', extra);
    },
  });

  route(app, '/gw/keys/:id', {
    GET: async (request, reply) => {
      const storageId = storageIdFrom(request);
      const resolved = await deps.sessions.resolve(storageId);
      if (!resolved) throw new HttpError('not_found', 'Key not found');
      if (!resolved.ok) throw new HttpError('invalid', `Key cannot be used: ${resolved.error}`);
      return sendJson(reply, 200, withoutPassword(await liveQuota(store, storageId, resolved.effective, deps.now())));
    },
    POST: async (request, reply) => {
      const body = parseBody(request, Session, 'the key');
      const key = body.basic_auth_data ? basicAuthKeyName(body.org_id, param(request, 'id')) : param(request, 'id');
      const problem = customKeyProblem(key, config.min_token_length);
      if (problem) throw new HttpError('invalid', problem);
      const { extra } = await create(key, body);
      return modified(reply, key, 'added', extra);
    },
    PUT: async (request, reply) => {
      const storageId = storageIdFrom(request);
      const existing = await store.getKey(storageId);
      if (!existing) throw new HttpError('not_found', 'Key is not found');
      const written = parseBody(request, Session, 'the key');
      await checkCertificateUpdate(written, existing);
      const { session, apis } = await prepare(written, existing, false);
      await store.putKey(storageId, session, { resetCounters: !queryFlag(request, 'suppress_reset') && resetsQuota(apis) });
      deps.sessions.invalidate(storageId);
      return modified(reply, param(request, 'id'), 'modified');
    },
    DELETE: async (request, reply) => {
      const storageId = storageIdFrom(request);
      if (!(await store.deleteKey(storageId))) throw new HttpError('not_found', 'There is no such key found');
      await store.resetCounters(storageId);
      deps.sessions.invalidate(storageId);
      return modified(reply, param(request, 'id'), 'deleted');
    },
  });
}
