// /api/usergroups: the user groups of the caller's organisation (permission `user_groups`), in Tyk Dashboard's
// paths and fields. A group carries permissions; its members (users whose user_group_id names it) hold them instead
// of their own. Nobody creates or edits a group granting a permission above their own, or edits or deletes a group
// holding one (grants.ts: 403 naming it). A group with members is not deleted (409: move them first). Another
// organisation's group is "not found", as if it did not exist.
//   GET    /api/usergroups[?p=]    {groups: [...], pages}
//   POST   /api/usergroups         {name, description?, user_permissions?} -> {Status, Message: "User group created", Meta: <group>}
//   GET    /api/usergroups/{id}    the group
//   PUT    /api/usergroups/{id}    the fields to change -> {Status, Message: "User group updated", Meta: <group>}
//   DELETE /api/usergroups/{id}    {Status, Message: "User group deleted", Meta: null}
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { orgRoute, type Caller } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { checkGrant, checkNotAbove } from '../grants.ts';
import { HttpError, notFound, objectBody, param, parseWith, sendJson, sendOk } from '../http.ts';
import { objectId } from '../ids.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { deleteUserGroup, getUserGroup, insertUserGroup, listUserGroups, memberCount, updateUserGroup, type UserGroup } from '../store/user-groups.ts';
import { RESOURCES, type Permissions } from '../store/users.ts';
import { write } from '../store/write.ts';
import { UserPermissions } from '../user-writes.ts';

const GroupCreate = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  description: z.string().max(1000).default(''),
  user_permissions: UserPermissions.default({}),
});

const GroupUpdate = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  description: z.string().max(1000).optional(),
  user_permissions: UserPermissions.optional(),
});

const whole = (given: Partial<Permissions>, base?: Permissions): Permissions =>
  Object.fromEntries(RESOURCES.map((r) => [r, given[r] ?? base?.[r] ?? 'deny'])) as Permissions;

export function registerUserGroupRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;

  const groupOf = async (request: FastifyRequest, caller: Caller): Promise<UserGroup> => {
    const group = await getUserGroup(db, caller.org.id, param(request, 'id'));
    if (!group) throw notFound('User group');
    return group;
  };

  orgRoute(app, '/api/usergroups', 'user_groups', {
    GET: async (request, reply, caller) => {
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await listUserGroups(db, caller.org.id, page);
      return sendJson(reply, 200, { groups: items, pages: pagesOf(total, page) });
    },
    POST: async (request, reply, caller) => {
      const body = parseWith(GroupCreate, objectBody(request, 'the user group'));
      checkGrant(caller, body.user_permissions);
      const id = objectId();
      await write(db, caller.org.id, { bumpRevision: false }, (tx) =>
        insertUserGroup(tx, { id, org_id: caller.org.id, name: body.name, description: body.description, user_permissions: whole(body.user_permissions) }),
      );
      return sendOk(reply, 'User group created', await getUserGroup(db, caller.org.id, id));
    },
  });

  orgRoute(app, '/api/usergroups/:id', 'user_groups', {
    GET: async (request, reply, caller) => sendJson(reply, 200, await groupOf(request, caller)),
    PUT: async (request, reply, caller) => {
      const body = parseWith(GroupUpdate, objectBody(request, 'the user group'));
      const group = await groupOf(request, caller);
      checkNotAbove(caller, group.user_permissions, 'user group');
      if (body.user_permissions) checkGrant(caller, body.user_permissions);
      const updated = {
        ...group,
        name: body.name ?? group.name,
        description: body.description ?? group.description,
        user_permissions: whole(body.user_permissions ?? {}, group.user_permissions),
      };
      await write(db, caller.org.id, { bumpRevision: false }, (tx) => updateUserGroup(tx, updated));
      return sendOk(reply, 'User group updated', await getUserGroup(db, caller.org.id, group.id));
    },
    DELETE: async (request, reply, caller) => {
      const group = await groupOf(request, caller);
      checkNotAbove(caller, group.user_permissions, 'user group');
      await write(db, caller.org.id, { bumpRevision: false }, async (tx) => {
        const members = await memberCount(tx, group.id);
        if (members > 0) throw new HttpError('conflict', `user group ${group.name} has ${members} member(s): move them to another group (user_group_id) first`);
        await deleteUserGroup(tx, group.id);
      });
      return sendOk(reply, 'User group deleted');
    },
  });
}
