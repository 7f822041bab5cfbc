// No way up: what a user may hand out is bounded by what they hold. Nobody grants a permission above their own
// (to a user, to a user group, or by putting a user in a group that holds it), and nobody manages a user or a group
// holding any permission above their own (a user manager must not take over, or lock out, someone who may do
// more). Each refusal is 403 naming the field and the permission (Tyk Dashboard refuses the same way).
import type { Caller } from './access.ts';
import { HttpError } from './http.ts';
import { RESOURCES, type Access, type Permissions } from './store/users.ts';

const RANK: Record<Access, number> = { deny: 0, read: 1, write: 2 };

/** Refuses any permission in `given` above the caller's own, naming `<field>.<resource>`. */
export function checkGrant(caller: Caller, given: Partial<Permissions>): void {
  for (const resource of RESOURCES) {
    const wanted = given[resource];
    const own = caller.user.user_permissions[resource] ?? 'deny';
    if (wanted !== undefined && RANK[wanted] > RANK[own]) {
      throw new HttpError('forbidden', `user_permissions.${resource}: you cannot grant ${wanted}: your own permission is ${own}`);
    }
  }
}

/** Refuses to put a user in a group granting a permission above the caller's own, naming user_group_id. */
export function checkGroupGrant(caller: Caller, group: { name: string; user_permissions: Partial<Permissions> }): void {
  for (const resource of RESOURCES) {
    const granted = group.user_permissions[resource] ?? 'deny';
    const own = caller.user.user_permissions[resource] ?? 'deny';
    if (RANK[granted] > RANK[own]) {
      throw new HttpError('forbidden', `user_group_id: the user group ${group.name} grants ${resource} ${granted}, above your own permission (${own})`);
    }
  }
}

/** Refuses to act on a user or group (`what`) holding any permission above the caller's own, naming the first. */
export function checkNotAbove(caller: Caller, held: Partial<Permissions>, what: string): void {
  for (const resource of RESOURCES) {
    const theirs = held[resource] ?? 'deny';
    const own = caller.user.user_permissions[resource] ?? 'deny';
    if (RANK[theirs] > RANK[own]) {
      throw new HttpError('forbidden', `you cannot manage a ${what} whose permissions exceed your own: they hold ${resource} ${theirs}, you hold ${own}`);
    }
  }
}
