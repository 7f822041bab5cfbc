// /admin/users: the people and systems that call the org API (admin-auth). A user belongs to one organisation,
// has a permission per resource (read, write or deny; deny when not given) and an access key shown only in the
// answer that creates or resets it (the database holds its SHA-256). `system: true` marks the operator's user,
// the only one allowed to write APIs and policies of an operator_managed organisation. `user_group_id` puts the user
// in one of their organisation's user groups ('' for none; another organisation's group is 400 "not found").
//   POST   /admin/users                          {org_id, email_address, first_name, last_name, active, user_permissions, system?, user_group_id?}
//                                                -> {Status, Message: "User created", Meta: {id, access_key, ...}}
//   GET    /admin/users[?org_id=&p=]             {users: [...], pages}
//   GET    /admin/users/{id}                     the user (no access key)
//   PUT    /admin/users/{id}                     the fields to change -> {Status, Message: "User updated", Meta: <user>}
//   DELETE /admin/users/{id}                     {Status, Message: "User deleted", Meta: null}
//   POST   /admin/users/{id}/actions/key/reset   a new access key -> {Status, Message: "User key reset", Meta: {id, access_key}}
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, notFound, objectBody, param, parseWith, query, route, sendJson, sendOk } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { deleteUser, getUser, listUsers } from '../store/users.ts';
import { changeUser, createUser, Email, GroupId, resetUserKey, UserPermissions } from '../user-writes.ts';

const UserCreate = z.object({
  org_id: z.string().min(1),
  email_address: Email,
  first_name: z.string().default(''),
  last_name: z.string().default(''),
  active: z.boolean().default(true),
  system: z.boolean().default(false),
  user_permissions: UserPermissions.default({}),
  user_group_id: GroupId.default(''),
});

const UserUpdate = z.object({
  org_id: z.string().optional(),
  email_address: Email.optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  active: z.boolean().optional(),
  system: z.boolean().optional(),
  user_permissions: UserPermissions.optional(),
  user_group_id: GroupId.optional(),
});

export function registerUserRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;

  route(app, '/admin/users', {
    GET: async (request, reply) => {
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await listUsers(db, query(request, 'org_id'), page);
      return sendJson(reply, 200, { users: items, pages: pagesOf(total, page) });
    },
    POST: async (request, reply) => {
      const body = parseWith(UserCreate, objectBody(request, 'the user'));
      const { user, accessKey } = await createUser(deps, body);
      return sendOk(reply, 'User created', { ...user, access_key: accessKey });
    },
  });

  route(app, '/admin/users/:id', {
    GET: async (request, reply) => {
      const user = await getUser(db, param(request, 'id'));
      if (!user) throw notFound('User');
      return sendJson(reply, 200, user);
    },
    PUT: async (request, reply) => {
      const id = param(request, 'id');
      const body = parseWith(UserUpdate, objectBody(request, 'the user'));
      const existing = await getUser(db, id);
      if (!existing) throw notFound('User');
      if (body.org_id !== undefined && body.org_id !== existing.org_id) throw new HttpError('invalid', 'org_id: a user cannot move to another organisation');
      const { org_id: _ignored, ...changes } = body;
      return sendOk(reply, 'User updated', await changeUser(deps, existing, changes));
    },
    DELETE: async (request, reply) => {
      if (!(await deleteUser(db, param(request, 'id')))) throw notFound('User');
      return sendOk(reply, 'User deleted');
    },
  });

  route(app, '/admin/users/:id/actions/key/reset', {
    POST: async (request, reply) => {
      const id = param(request, 'id');
      return sendOk(reply, 'User key reset', { id, access_key: await resetUserKey(deps, id) });
    },
  });
}
