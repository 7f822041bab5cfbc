// Creating, changing and re-keying dashboard users: the one place that does it, for both doors (the admin API,
// admin-auth, any organisation; the org API, a user with the `users` permission, their own organisation only).
// An e-mail address belongs to one user of an organisation (another organisation's users are never looked at,
// so a clash tells nothing about them); permissions not given are `deny` on creation and unchanged on an update;
// the access key is generated here, returned once and stored as its SHA-256. Never logs a key.
import { z } from 'zod';
import { hashKey } from '../domain/key-hash.ts';
import type { DashboardDeps } from './deps.ts';
import { HttpError, notFound } from './http.ts';
import { accessKey, objectId } from './ids.ts';
import { getOrg } from './store/orgs.ts';
import { emailTaken, getUser, insertUser, RESOURCES, setAccessKey, updateUser, type Permissions, type User } from './store/users.ts';
import { getUserGroup } from './store/user-groups.ts';
import { write } from './store/write.ts';
import type { Queryable } from '../db/database.ts';
import { isUniqueViolation } from '../db/rows.ts';

const Access = z.enum(['read', 'write', 'deny']);
const PermissionFields = Object.fromEntries(RESOURCES.map((r) => [r, Access.optional()])) as Record<(typeof RESOURCES)[number], z.ZodOptional<typeof Access>>;
export const UserPermissions = z.object(PermissionFields);
export const Email = z.string().regex(/^[^@\s]+@[^@\s]+$/, 'must be an email address');
/** A user group's id ('' for none), as user_group_id carries it. */
export const GroupId = z.string().max(128);
export type GivenPermissions = z.infer<typeof UserPermissions>;

export type NewUser = Omit<User, 'id' | 'created_at' | 'user_permissions' | 'user_group_id'> & {
  user_permissions: GivenPermissions;
  user_group_id?: string | undefined;
};

export type UserChanges = Partial<Omit<NewUser, 'org_id' | 'user_permissions'>> & { user_permissions?: GivenPermissions | undefined };

function permissions(given: GivenPermissions, base?: Permissions): Permissions {
  return Object.fromEntries(RESOURCES.map((r) => [r, given[r] ?? base?.[r] ?? 'deny'])) as Permissions;
}

/** A user group named for a user must be one of the organisation's ('' is none). */
async function checkGroupExists(tx: Queryable, orgId: string, groupId: string): Promise<void> {
  if (groupId !== '' && !(await getUserGroup(tx, orgId, groupId)))
    throw new HttpError('invalid', `user_group_id: user group ${groupId} not found in this organisation`);
}

const emailConflict = (email: string): HttpError => new HttpError('conflict', `email_address: ${email} is already used by another user of this organisation`);

/** The new user and their access key (shown once). */
export async function createUser(deps: DashboardDeps, fields: NewUser): Promise<{ user: User; accessKey: string }> {
  const user: Omit<User, 'created_at'> = {
    id: objectId(),
    ...fields,
    user_permissions: permissions(fields.user_permissions),
    user_group_id: fields.user_group_id ?? '',
  };
  const key = accessKey();
  await write(deps.db, fields.org_id, { bumpRevision: false }, async (tx) => {
    if (!(await getOrg(tx, fields.org_id))) throw new HttpError('invalid', `org_id: organisation ${fields.org_id} not found`);
    await checkGroupExists(tx, fields.org_id, user.user_group_id);
    if (await emailTaken(tx, fields.org_id, fields.email_address, user.id)) throw emailConflict(fields.email_address);
    await insertUser(tx, user, hashKey(key));
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? emailConflict(fields.email_address) : error;
  });
  deps.log.info({ user: user.id, org: user.org_id, system: user.system }, 'user created');
  return { user: (await getUser(deps.db, user.id))!, accessKey: key };
}

/** The user after the changes (a deactivated user's sessions end: access.ts admits active users only). The
 * operator's system user stays active while it is one: deactivating it would cut the operator off its organisation
 * (unset `system` in the same or an earlier change to deactivate it on purpose). */
export async function changeUser(deps: DashboardDeps, existing: User, changes: UserChanges): Promise<User> {
  const { user_permissions, ...fields } = changes;
  const updated = { ...existing, ...fields, user_permissions: permissions(user_permissions ?? {}, existing.user_permissions) };
  if (updated.system && !updated.active) {
    throw new HttpError(
      'conflict',
      `active: ${existing.email_address} is the operator's system user and cannot be deactivated (the operator would lose access to its organisation); set system to false first`,
    );
  }
  await write(deps.db, existing.org_id, { bumpRevision: false }, async (tx) => {
    if (await emailTaken(tx, existing.org_id, updated.email_address, existing.id)) throw emailConflict(updated.email_address);
    await checkGroupExists(tx, existing.org_id, updated.user_group_id);
    await updateUser(tx, updated);
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? emailConflict(updated.email_address) : error;
  });
  return (await getUser(deps.db, existing.id))!;
}

/** A new access key for the user (the old one, and the sessions opened with it, stop working). */
export async function resetUserKey(deps: DashboardDeps, id: string): Promise<string> {
  const key = accessKey();
  if (!(await setAccessKey(deps.db, id, hashKey(key)))) throw notFound('User');
  deps.log.info({ user: id }, 'user access key reset');
  return key;
}
