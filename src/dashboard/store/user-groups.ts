// User groups in the database (Tyk Dashboard's user groups): each belongs to one organisation and carries
// per-resource permissions; a user whose user_group_id names a group holds the group's permissions instead of their
// own (access.ts). A group with members cannot be deleted (the members would silently fall back to their own).
import type { Queryable } from '../../db/database.ts';
import { fromJsonb, iso, jsonb } from '../../db/rows.ts';
import { limitClause, type Page } from '../paging.ts';
import type { Permissions } from './users.ts';

export interface UserGroup {
  id: string;
  org_id: string;
  name: string;
  description: string;
  /** Always true: gw has no inactive groups (Tyk's field, kept for its clients). */
  active: true;
  user_permissions: Permissions;
  created_at: string;
}

interface GroupRow {
  id: string;
  org_id: string;
  name: string;
  description: string;
  permissions: unknown;
  created_at: unknown;
}

const COLUMNS = 'id, org_id, name, description, permissions, created_at';

const toGroup = (row: GroupRow): UserGroup => ({
  id: row.id,
  org_id: row.org_id,
  name: row.name,
  description: row.description,
  active: true,
  user_permissions: fromJsonb<Permissions>(row.permissions),
  created_at: iso(row.created_at),
});

/** The organisation's group with this id (another organisation's: undefined). */
export async function getUserGroup(db: Queryable, orgId: string, id: string): Promise<UserGroup | undefined> {
  const rows = await db.query<GroupRow>(`SELECT ${COLUMNS} FROM dashboard_user_groups WHERE id = $1 AND org_id = $2`, [id, orgId]);
  return rows[0] && toGroup(rows[0]);
}

export async function listUserGroups(db: Queryable, orgId: string, page: Page): Promise<{ items: UserGroup[]; total: number }> {
  const params: unknown[] = [orgId];
  const count = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM dashboard_user_groups WHERE org_id = $1', [orgId]);
  const rows = await db.query<GroupRow>(
    `SELECT ${COLUMNS} FROM dashboard_user_groups WHERE org_id = $1 ORDER BY created_at, id${limitClause(page, params)}`,
    params,
  );
  return { items: rows.map(toGroup), total: Number(count[0]?.n ?? 0) };
}

export async function insertUserGroup(db: Queryable, group: Omit<UserGroup, 'created_at' | 'active'>): Promise<void> {
  await db.query('INSERT INTO dashboard_user_groups (id, org_id, name, description, permissions) VALUES ($1, $2, $3, $4, $5::jsonb)', [
    group.id,
    group.org_id,
    group.name,
    group.description,
    jsonb(group.user_permissions),
  ]);
}

export async function updateUserGroup(db: Queryable, group: Omit<UserGroup, 'created_at' | 'active'>): Promise<void> {
  await db.query('UPDATE dashboard_user_groups SET name = $2, description = $3, permissions = $4::jsonb WHERE id = $1', [
    group.id,
    group.name,
    group.description,
    jsonb(group.user_permissions),
  ]);
}

export async function memberCount(db: Queryable, id: string): Promise<number> {
  const rows = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM dashboard_users WHERE user_group_id = $1', [id]);
  return Number(rows[0]?.n ?? 0);
}

export async function deleteUserGroup(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_user_groups WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** The user as the dashboard checks them: a group member holds the group's permissions instead of their own. */
export async function withGroupPermissions<U extends { org_id: string; user_group_id: string; user_permissions: Permissions }>(
  db: Queryable,
  user: U,
): Promise<U> {
  if (user.user_group_id === '') return user;
  const group = await getUserGroup(db, user.org_id, user.user_group_id);
  return group ? { ...user, user_permissions: group.user_permissions } : user;
}
