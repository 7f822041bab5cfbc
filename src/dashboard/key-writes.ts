// Creating a key (session), whichever way it is asked for: POST /api/keys[/{key}] and the approval of a portal
// key request (portal/key-requests.ts). Inside the caller's write transaction: the session is validated, may only
// grant the organisation's APIs and apply its policies (a new key cannot apply a policy in state draft or deny),
// the key is stored under storageIdOf(key, hash_keys) — with hash_keys on, the key itself is answered once, by
// the caller, and is nowhere afterwards. A chosen key is refused (409) only when the organisation itself holds it:
// other organisations' keys are never looked at, so the answer tells nothing about them. The caller's write() must bump the revision (gateways load keys).
// A basic_auth_data password is stored only as a bcrypt hash (hash_type `bcrypt`, as Tyk Gateway stores it; hashed in
// the dashboard's bcrypt worker pool, re-hashed on update only when it changed): gateways the dashboard feeds check
// it with bcrypt, and no read shows it (withoutPassword).
import { storageIdOf } from '../domain/key-hash.ts';
import { Session } from '../domain/session.ts';
import type { Queryable } from '../db/database.ts';
import { hashingForKeyWrites, withHashedPassword, type PasswordHasher } from '../http/basic-auth-data.ts';
import { checkAccessRights, checkAppliedPolicies } from './access-rights.ts';
import type { DashboardConfig } from './config.ts';
import { HttpError, parseWith } from './http.ts';
import { newKey } from './ids.ts';
import { insertKey, keyTaken } from './store/keys.ts';

/** A key body validated and checked against the organisation (its org_id set, its password hashed); `existing` for updates. */
export async function checkedSession(
  tx: Queryable,
  orgId: string,
  body: Record<string, unknown>,
  hashPassword: PasswordHasher,
  existing?: Session,
): Promise<Record<string, unknown>> {
  const creating = existing === undefined;
  const parsed = parseWith(Session, body);
  if (Object.keys(parsed.access_rights ?? {}).length === 0 && (parsed.apply_policies ?? []).length === 0 && !parsed.apply_policy_id) {
    throw new HttpError('invalid', 'access_rights: a key needs access_rights or apply_policies');
  }
  await checkAccessRights(tx, orgId, parsed.access_rights);
  await checkAppliedPolicies(tx, orgId, parsed, creating);
  return { ...(await withHashedPassword(parsed, existing, hashingForKeyWrites(hashPassword))), org_id: orgId };
}

export interface CreatedKey {
  /** The key itself (answer it once; it is stored only as storage_id when hashed). */
  key: string;
  storage_id: string;
  session: Record<string, unknown>;
}

/** Creates a key in the transaction: a generated one (chosen undefined) or the caller's; 409 when taken. */
export async function createKeyIn(
  tx: Queryable,
  config: Pick<DashboardConfig, 'hash_keys'>,
  orgId: string,
  body: Record<string, unknown>,
  chosen: string | undefined,
  hashPassword: PasswordHasher,
): Promise<CreatedKey> {
  const key = chosen ?? newKey(orgId);
  const storageId = storageIdOf(key, config.hash_keys);
  const checked = await checkedSession(tx, orgId, body, hashPassword);
  if (await keyTaken(tx, orgId, storageId)) throw new HttpError('conflict', 'a key with this value already exists');
  const now = new Date().toISOString();
  const session = { ...checked, date_created: now, last_updated: now };
  await insertKey(tx, { storage_id: storageId, org_id: orgId, hashed: config.hash_keys, session });
  return { key, storage_id: storageId, session };
}
