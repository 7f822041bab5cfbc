// A developer's keys: issuing one (a key request's approval, or an admin adding a key to a developer) and revoking
// one. Issuing goes through the dashboard's one key creation (key-writes.ts createKeyIn: the same checks as
// POST /api/keys), with the developer's e-mail as alias and meta_data.tyk_developer_id, and records the key on the
// developer by storage id (keys: key -> policies; subscriptions: policy -> latest key). Revoking deletes the key
// (gateways drop it at their next poll) and removes it from the developer. Both run inside the caller's write
// transaction or their own, which bumps the revision. The raw key is only in the return value of issuing.
import type { Database, Queryable } from '../../db/database.ts';
import type { PasswordHasher } from '../../http/basic-auth-data.ts';
import type { DashboardConfig } from '../config.ts';
import { notFound } from '../http.ts';
import { createKeyIn, type CreatedKey } from '../key-writes.ts';
import { deleteKey } from '../store/keys.ts';
import { write } from '../store/write.ts';
import { getDeveloper, updateDeveloper, type Developer } from './store/developers.ts';

export interface KeyDeps {
  db: Database;
  config: Pick<DashboardConfig, 'hash_keys'>;
}

/** A developer's key is built here from policies only: it never carries basic_auth_data, so nothing is hashed. */
const NO_PASSWORD: PasswordHasher = () => Promise.reject(new Error('a developer key has no basic-auth password'));

/** Tyk's answer to issuing a key: the key, shown this once. */
export interface IssuedKey {
  RawKey: string;
  Password: string;
}

/** Creates a key applying these policies for the developer (in the caller's transaction) and records it on them. */
export async function issueDeveloperKeyIn(tx: Queryable, config: KeyDeps['config'], developer: Developer, policies: string[]): Promise<CreatedKey> {
  const session = { apply_policies: policies, alias: developer.email, meta_data: { tyk_developer_id: developer.id } };
  const created = await createKeyIn(tx, config, developer.org_id, session, undefined, NO_PASSWORD);
  const subscriptions = { ...developer.subscriptions };
  for (const policy of policies) subscriptions[policy] = created.storage_id;
  await updateDeveloper(tx, { ...developer, keys: { ...developer.keys, [created.storage_id]: policies }, subscriptions });
  return created;
}

/** Issues a key to the organisation's developer (404 when there is none). */
export async function issueDeveloperKey(deps: KeyDeps, orgId: string, developerId: string, policies: string[]): Promise<IssuedKey> {
  return write(deps.db, orgId, { bumpRevision: true }, async (tx) => {
    const developer = await getDeveloper(tx, orgId, developerId);
    if (!developer) throw notFound('Developer');
    const created = await issueDeveloperKeyIn(tx, deps.config, developer, policies);
    return { RawKey: created.key, Password: '' };
  });
}

/** Deletes one of the developer's keys, by the storage id their `keys` shows; 404 when it is not theirs. */
export async function revokeDeveloperKey(db: Database, orgId: string, developerId: string, keyId: string): Promise<void> {
  await write(db, orgId, { bumpRevision: true }, async (tx) => {
    const developer = await getDeveloper(tx, orgId, developerId);
    if (!developer) throw notFound('Developer');
    if (!Object.hasOwn(developer.keys, keyId)) throw notFound('Key');
    await deleteKey(tx, orgId, keyId);
    const keys = Object.fromEntries(Object.entries(developer.keys).filter(([id]) => id !== keyId));
    const subscriptions = Object.fromEntries(Object.entries(developer.subscriptions).filter(([, id]) => id !== keyId));
    await updateDeveloper(tx, { ...developer, keys, subscriptions });
  });
}
