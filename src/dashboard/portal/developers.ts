// Portal developers, for both sides: the admin API (/api/portal/developers) and the portal pages (sign-up,
// sign-in). Creating or changing a password hashes it with scrypt first (a bcrypt hash sent instead, as Tyk's
//  clients may, is kept: passwords.ts; outside the transaction: the hash takes tens of milliseconds), then writes under the organisation's lock so two sign-ups with one e-mail cannot both
// pass the uniqueness check. verifyDeveloperCredentials answers the developer only for the right password of an
// active developer; its timing does not depend on whether the e-mail exists (passwords.ts). checkDeveloperSignIn
// also tells the portal's sign-in that the right password belongs to a developer awaiting approval (only someone
// who knows the password learns it). developerView() is Tyk's developer object (plus gw's awaiting_approval): the
// password (hash) is never part of it.
import type { Database, Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../http.ts';
import { objectId } from '../ids.ts';
import { write } from '../store/write.ts';
import { passwordMatches, storedPasswordOf } from './passwords.ts';
import type { DeveloperCreateInput, DeveloperUpdateInput } from './schemas.ts';
import {
  developerEmailTaken,
  developerWithHashByEmail,
  getDeveloper,
  insertDeveloper,
  setDeveloperPasswordHash,
  updateDeveloper,
  type Developer,
} from './store/developers.ts';

/** Tyk's developer object (both `id` and `_id`, as its get and list answers spell it). */
export function developerView(developer: Developer): Record<string, unknown> {
  return {
    id: developer.id,
    _id: developer.id,
    email: developer.email,
    date_created: developer.date_created,
    inactive: developer.inactive,
    awaiting_approval: developer.awaiting_approval,
    org_id: developer.org_id,
    keys: developer.keys,
    subscriptions: developer.subscriptions,
    fields: developer.fields,
    nonce: '',
    sso_key: '',
  };
}

const emailTaken = (): HttpError => new HttpError('conflict', 'email: a developer with this e-mail already exists in this organisation');

/**
 * Creates a developer (409 naming email when the organisation already has one with this e-mail); `awaitingApproval`:
 * a portal sign-up under require_developer_approval (created inactive, until an administrator approves).
 */
export async function createDeveloper(db: Database, orgId: string, input: DeveloperCreateInput, awaitingApproval = false): Promise<Developer> {
  const passwordHash = await storedPasswordOf(input.password);
  const developer = {
    id: objectId(),
    org_id: orgId,
    email: input.email,
    inactive: input.inactive || awaitingApproval,
    awaiting_approval: awaitingApproval,
    fields: input.fields,
    keys: {},
    subscriptions: {},
  };
  return write(db, orgId, { bumpRevision: false }, async (tx) => {
    if (await developerEmailTaken(tx, orgId, input.email, developer.id)) throw emailTaken();
    await insertDeveloper(tx, developer, passwordHash);
    return (await getDeveloper(tx, orgId, developer.id))!;
  });
}

/**
 * Replaces e-mail, inactive and fields (keys and subscriptions are kept; a password given is set). 404 when
 * missing. Activating a developer who awaits approval approves them.
 */
export async function updateDeveloperRecord(db: Database, orgId: string, id: string, input: DeveloperUpdateInput): Promise<Developer> {
  const passwordHash = input.password === undefined ? undefined : await storedPasswordOf(input.password);
  return write(db, orgId, { bumpRevision: false }, async (tx) => {
    const found = await getDeveloper(tx, orgId, id);
    if (!found) throw notFound('Developer');
    if (await developerEmailTaken(tx, orgId, input.email, id)) throw emailTaken();
    const awaiting = found.awaiting_approval && input.inactive;
    await updateDeveloper(tx, { ...found, email: input.email, inactive: input.inactive, awaiting_approval: awaiting, fields: input.fields });
    if (passwordHash !== undefined) await setDeveloperPasswordHash(tx, orgId, id, passwordHash);
    return (await getDeveloper(tx, orgId, id))!;
  });
}

/** Sets a developer's password; false when the organisation has no such developer. */
export async function changeDeveloperPassword(db: Queryable, orgId: string, id: string, password: string): Promise<boolean> {
  return setDeveloperPasswordHash(db, orgId, id, await storedPasswordOf(password));
}

/** The active developer with this e-mail and password, else undefined (never says which part was wrong). */
export async function verifyDeveloperCredentials(db: Queryable, orgId: string, email: string, password: string): Promise<Developer | undefined> {
  const checked = await checkDeveloperSignIn(db, orgId, email, password);
  return checked?.awaitingApproval === false ? checked.developer : undefined;
}

/**
 * The developer with this e-mail and password when they may sign in (awaitingApproval false) or await an
 * administrator's approval (true); undefined for a wrong password, an unknown e-mail or an inactive developer.
 */
export async function checkDeveloperSignIn(
  db: Queryable,
  orgId: string,
  email: string,
  password: string,
): Promise<{ developer: Developer; awaitingApproval: boolean } | undefined> {
  const found = await developerWithHashByEmail(db, orgId, email);
  const matches = await passwordMatches(password, found?.passwordHash);
  if (!matches || !found) return undefined;
  if (found.developer.awaiting_approval) return { developer: found.developer, awaitingApproval: true };
  return found.developer.inactive ? undefined : { developer: found.developer, awaitingApproval: false };
}

/** Approves a developer awaiting approval (they become active); 404 when missing, 409 when not awaiting approval. */
export async function approveDeveloper(db: Database, orgId: string, id: string): Promise<Developer> {
  return write(db, orgId, { bumpRevision: false }, async (tx) => {
    const found = await getDeveloper(tx, orgId, id);
    if (!found) throw notFound('Developer');
    if (!found.awaiting_approval) throw new HttpError('conflict', 'this developer is not awaiting approval');
    await updateDeveloper(tx, { ...found, inactive: false, awaiting_approval: false });
    return (await getDeveloper(tx, orgId, id))!;
  });
}
