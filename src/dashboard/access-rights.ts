// The references a policy or a key makes, checked against the caller's organisation: every API named in
// access_rights must be one of its APIs (and the entry's api_id must be its key), every policy a key applies must be
// one of its policies and, for a new key, in a state that allows new keys (gw's documented policy states: `draft` keeps
// existing keys working but allows no new ones; `deny` allows none). A reference to another organisation's object
// is refused with the same message as a reference to nothing, so it reveals nothing.
import type { Queryable } from '../db/database.ts';
import { HttpError } from './http.ts';
import { existingApiIds } from './store/apis.ts';
import { policiesByIds } from './store/policies.ts';

export async function checkAccessRights(db: Queryable, orgId: string, rights: Record<string, { api_id: string }> | undefined): Promise<void> {
  const ids = Object.keys(rights ?? {});
  for (const id of ids) {
    const entry = rights![id]!;
    if (entry.api_id !== id) throw new HttpError('invalid', `access_rights.${id}.api_id: must be the entry's key (${id}), not ${entry.api_id}`);
  }
  const found = await existingApiIds(db, orgId, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw new HttpError('invalid', `access_rights.${missing}: API ${missing} not found in this organisation`);
}

/** The state a policy is in: `state` when set, else the legacy flags (is_inactive, active: false) mean deny. */
export function policyState(policy: Record<string, unknown>): 'active' | 'draft' | 'deny' {
  const state = policy.state;
  if (state === 'active' || state === 'draft' || state === 'deny') return state;
  return policy.is_inactive === true || policy.active === false ? 'deny' : 'active';
}

export async function checkAppliedPolicies(
  db: Queryable,
  orgId: string,
  session: { apply_policies?: string[] | undefined; apply_policy_id?: string | undefined },
  creating: boolean,
): Promise<void> {
  const named = [
    ...(session.apply_policies ?? []).map((id, index) => ({ id, field: `apply_policies.${index}` })),
    ...(session.apply_policy_id ? [{ id: session.apply_policy_id, field: 'apply_policy_id' }] : []),
  ];
  const found = await policiesByIds(
    db,
    orgId,
    named.map((n) => n.id),
  );
  for (const { id, field } of named) {
    const policy = found.get(id);
    if (!policy) throw new HttpError('invalid', `${field}: policy ${id} not found in this organisation`);
    const state = policyState(policy.policy);
    if (creating && state !== 'active') {
      throw new HttpError('invalid', `${field}: policy ${id} is in state ${state}: no new keys can be created under it`);
    }
  }
}
