// /api/users: the users of the caller's organisation (permission `users`), in Tyk Dashboard's paths. What
// the admin API does for any organisation, a user with `users` write does for their own, within limits that keep
// it from being a way up: nobody grants a permission above their own, changes their own permissions or
// deactivates or deletes themselves, changes, re-keys or deletes a user holding any permission above their own
// (a user manager must not take over, or lock out, someone who may do more), and the operator's system user (and
// `system` itself) stays with the admin API. Putting a user in a user group (user_group_id) grants the group's
// permissions, so the caller must hold each of them (grants.ts); a user never changes their own group. Another organisation's user is "not found", as if it did not exist.
//   GET    /api/users[?p=]                    {users: [...], pages}
//   POST   /api/users                         {email_address, first_name?, last_name?, active?, user_permissions?, user_group_id?}
//                                             -> {Status, Message: "User created", Meta: {..., access_key}} (key shown once)
//   GET    /api/users/{id}                    the user (never a key)
//   PUT    /api/users/{id}                    the fields to change -> {Status, Message: "User updated", Meta: <user>}
//   DELETE /api/users/{id}                    {Status, Message: "User deleted", Meta: null}
//   POST   /api/users/{id}/actions/key/reset  -> {Status, Message: "User key reset", Meta: {id, access_key}}
// Deactivating a user or resetting their key ends their web UI sessions.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { z } from 'zod';
import { orgRoute, type Caller } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, notFound, objectBody, param, parseWith, sendJson, sendOk } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { checkGrant, checkGroupGrant, checkNotAbove } from '../grants.ts';
import { getUserGroup, withGroupPermissions } from '../store/user-groups.ts';
import { deleteUser, getUser, listUsers, type User } from '../store/users.ts';
import { changeUser, createUser, Email, GroupId, resetUserKey, UserPermissions } from '../user-writes.ts';

/** Putting a user in a group grants the group's permissions: the caller must hold each of them. */
async function checkGroupMembership(db: Queryable, caller: Caller, groupId: string): Promise<void> {
  if (groupId === '') return;
  const group = await getUserGroup(db, caller.org.id, groupId);
  if (!group) throw new HttpError('invalid', `user_group_id: user group ${groupId} not found in this organisation`);
  checkGroupGrant(caller, group);
}

const OrgUserCreate = z.strictObject({
  email_address: Email,
  first_name: z.string().max(200).default(''),
  last_name: z.string().max(200).default(''),
  active: z.boolean().default(true),
  user_permissions: UserPermissions.default({}),
  user_group_id: GroupId.default(''),
});

const OrgUserUpdate = z.strictObject({
  email_address: Email.optional(),
  first_name: z.string().max(200).optional(),
  last_name: z.string().max(200).optional(),
  active: z.boolean().optional(),
  user_permissions: UserPermissions.optional(),
  user_group_id: GroupId.optional(),
});

export function registerOrgUserRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;

  /** The organisation's user the path names; for a change, neither the operator's system user nor one above the caller. */
  const userOf = async (request: FastifyRequest, caller: Caller, changing: boolean): Promise<User> => {
    const user = await getUser(db, param(request, 'id'));
    if (!user || user.org_id !== caller.org.id) throw notFound('User');
    if (changing && user.system) throw new HttpError('forbidden', "the operator's system user is managed through the admin API");
    if (changing) checkNotAbove(caller, (await withGroupPermissions(db, user)).user_permissions, 'user');
    return user;
  };
  const notSelf = (caller: Caller, user: User, what: string): void => {
    if (caller.user.id === user.id) throw new HttpError('forbidden', `you cannot ${what} yourself; another user with users write can`);
  };

  orgRoute(app, '/api/users', 'users', {
    GET: async (request, reply, caller) => {
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await listUsers(db, caller.org.id, page);
      return sendJson(reply, 200, { users: items, pages: pagesOf(total, page) });
    },
    POST: async (request, reply, caller) => {
      const body = parseWith(OrgUserCreate, objectBody(request, 'the user'));
      checkGrant(caller, body.user_permissions);
      await checkGroupMembership(db, caller, body.user_group_id);
      const { user, accessKey } = await createUser(deps, { ...body, org_id: caller.org.id, system: false });
      return sendOk(reply, 'User created', { ...user, access_key: accessKey });
    },
  });

  orgRoute(app, '/api/users/:id', 'users', {
    GET: async (request, reply, caller) => sendJson(reply, 200, await userOf(request, caller, false)),
    PUT: async (request, reply, caller) => {
      const body = parseWith(OrgUserUpdate, objectBody(request, 'the user'));
      const user = await userOf(request, caller, true);
      if (body.user_permissions !== undefined) {
        notSelf(caller, user, 'change the permissions of');
        checkGrant(caller, body.user_permissions);
      }
      if (body.user_group_id !== undefined && body.user_group_id !== user.user_group_id) {
        notSelf(caller, user, 'change the user group of');
        await checkGroupMembership(db, caller, body.user_group_id);
        // Leaving every group gives the user back their own permissions (unused while in a group): granting them.
        if (body.user_group_id === '' && body.user_permissions === undefined) checkGrant(caller, user.user_permissions);
      }
      if (body.active === false) notSelf(caller, user, 'deactivate');
      return sendOk(reply, 'User updated', await changeUser(deps, user, body));
    },
    DELETE: async (request, reply, caller) => {
      const user = await userOf(request, caller, true);
      notSelf(caller, user, 'delete');
      if (!(await deleteUser(db, user.id))) throw notFound('User');
      return sendOk(reply, 'User deleted');
    },
  });

  orgRoute(app, '/api/users/:id/actions/key/reset', 'users', {
    POST: async (request, reply, caller) => {
      const user = await userOf(request, caller, true);
      return sendOk(reply, 'User key reset', { id: user.id, access_key: await resetUserKey(deps, user.id) });
    },
  });
}
