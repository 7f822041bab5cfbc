// /admin/users: the people and systems that call the org API (admin-auth). A user belongs to one organisation,
// has a permission per resource (read, write or deny; deny when not given) and an access key shown only in the
// answer that creates or resets it (the database holds its SHA-256). `system: true` marks the operator's user,
// the only one allowed to write APIs and policies of an operator_managed organisation.
//   POST   /admin/users                          {org_id, email_address, first_name, last_name, active, user_permissions, system?}
//                                                -> {Status, Message: "User created", Meta: {id, access_key, ...}}
//   GET    /admin/users[?org_id=&p=]             {users: [...], pages}
//   GET    /admin/users/{id}                     the user (no access key)
//   PUT    /admin/users/{id}                     the fields to change -> {Status, Message: "User updated", Meta: <user>}
//   DELETE /admin/users/{id}                     {Status, Message: "User deleted", Meta: null}
//   POST   /admin/users/{id}/actions/key/reset   a new access key -> {Status, Message: "User key reset", Meta: {id, access_key}}
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashKey } from '../../api/key-hash.ts';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, notFound, objectBody, param, parseWith, query, route, sendJson, sendOk } from '../http.ts';
import { accessKey, objectId } from '../ids.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { getOrg } from '../store/orgs.ts';
import { deleteUser, emailTaken, getUser, insertUser, listUsers, RESOURCES, setAccessKey, updateUser, type Permissions, type User } from '../store/users.ts';
import { isUniqueViolation, write } from '../store/write.ts';

const Access = z.enum(['read', 'write', 'deny']);
const PermissionFields = Object.fromEntries(RESOURCES.map((r) => [r, Access.optional()])) as Record<(typeof RESOURCES)[number], z.ZodOptional<typeof Access>>;
const UserPermissions = z.object(PermissionFields);
const Email = z.string().regex(/^[^@\s]+@[^@\s]+$/, 'must be an email address');

const UserCreate = z.object({
  org_id: z.string().min(1),
  email_address: Email,
  first_name: z.string().default(''),
  last_name: z.string().default(''),
  active: z.boolean().default(true),
  system: z.boolean().default(false),
  user_permissions: UserPermissions.default({}),
});

const UserUpdate = z.object({
  org_id: z.string().optional(),
  email_address: Email.optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  active: z.boolean().optional(),
  system: z.boolean().optional(),
  user_permissions: UserPermissions.optional(),
});

function permissions(given: z.infer<typeof UserPermissions>, base?: Permissions): Permissions {
  return Object.fromEntries(RESOURCES.map((r) => [r, given[r] ?? base?.[r] ?? 'deny'])) as Permissions;
}

export function registerUserRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;
  const emailConflict = (email: string): HttpError => new HttpError('conflict', `email_address: ${email} is already used by another user`);

  route(app, '/admin/users', {
    GET: async (request, reply) => {
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await listUsers(db, query(request, 'org_id'), page);
      return sendJson(reply, 200, { users: items, pages: pagesOf(total, page) });
    },
    POST: async (request, reply) => {
      const body = parseWith(UserCreate, objectBody(request, 'the user'));
      const user: Omit<User, 'created_at'> = { id: objectId(), ...body, user_permissions: permissions(body.user_permissions) };
      const key = accessKey();
      await write(db, body.org_id, { bumpRevision: false }, async (tx) => {
        if (!(await getOrg(tx, body.org_id))) throw new HttpError('invalid', `org_id: organisation ${body.org_id} not found`);
        if (await emailTaken(tx, body.email_address, user.id)) throw emailConflict(body.email_address);
        await insertUser(tx, user, hashKey(key));
      }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? emailConflict(body.email_address) : error;
      });
      deps.log.info({ user: user.id, org: user.org_id, system: user.system }, 'user created');
      const created = await getUser(db, user.id);
      return sendOk(reply, 'User created', { ...created, access_key: key });
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
      const { org_id: _ignored, user_permissions, ...fields } = body;
      const updated = { ...existing, ...fields, user_permissions: permissions(user_permissions ?? {}, existing.user_permissions) };
      await write(db, existing.org_id, { bumpRevision: false }, async (tx) => {
        if (await emailTaken(tx, updated.email_address, id)) throw emailConflict(updated.email_address);
        await updateUser(tx, updated);
      }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? emailConflict(updated.email_address) : error;
      });
      return sendOk(reply, 'User updated', await getUser(db, id));
    },
    DELETE: async (request, reply) => {
      if (!(await deleteUser(db, param(request, 'id')))) throw notFound('User');
      return sendOk(reply, 'User deleted');
    },
  });

  route(app, '/admin/users/:id/actions/key/reset', {
    POST: async (request, reply) => {
      const id = param(request, 'id');
      const key = accessKey();
      if (!(await setAccessKey(db, id, hashKey(key)))) throw notFound('User');
      deps.log.info({ user: id }, 'user access key reset');
      return sendOk(reply, 'User key reset', { id, access_key: key });
    },
  });
}
