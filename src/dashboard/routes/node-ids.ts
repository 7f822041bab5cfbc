// One id space for a gateway that serves several organisations (node API without org_id). API and policy ids are
// unique per organisation only (store/apis.ts), but a gateway keys APIs and policies by id alone, so when two
// organisations use the same id the one that created it first keeps it and each later one is served under
// `<id>~<org_id>`; every reference of that organisation is rewritten with it (its keys' and policies'
// access_rights, its keys' apply_policies / apply_policy_id), so a key of one organisation can never reach
// another organisation's API through a shared id. Keys are unique per organisation too, but a key cannot be
// renamed (its client presents it): a value several organisations hold is served for the one that created it first
// only (its session grants that organisation's APIs alone); the others' keys with that value work on gateways bound
// to their organisation. A gateway bound to one organisation (org_id set) never needs this: its snapshot is left as
// is. Pure: rows in, rows out.

export interface NodeApi {
  id: string;
  org_id: string;
  format: string;
  definition: Record<string, unknown>;
}
export type NodePolicy = Record<string, unknown> & { id: string; org_id: string };
export interface NodeKey {
  storage_id: string;
  org_id: string;
  hashed: boolean;
  session: Record<string, unknown>;
}

export interface NodeContent {
  apis: NodeApi[];
  policies: NodePolicy[];
  keys: NodeKey[];
}

/** Content with ids made unique across organisations; rows must come ordered by id (keys: storage id), then creation. */
export function oneIdSpace(all: NodeContent): NodeContent {
  const keys = oneKeyPerStorageId(all.keys).served;
  const content = keys.length === all.keys.length ? all : { ...all, keys };
  const apiIds = renames(content.apis);
  const policyIds = renames(content.policies);
  if (apiIds.size === 0 && policyIds.size === 0) return content;
  const api = (org: string, id: string): string => apiIds.get(org)?.get(id) ?? id;
  const policy = (org: string, id: string): string => policyIds.get(org)?.get(id) ?? id;
  return {
    apis: content.apis.map((row) => ({ ...row, id: api(row.org_id, row.id) })),
    policies: content.policies.map((row) => ({ ...row, id: policy(row.org_id, row.id), ...accessRights(row.access_rights, (id) => api(row.org_id, id)) })),
    keys: content.keys.map((row) => {
      const session = row.session;
      const applied = Array.isArray(session.apply_policies)
        ? { apply_policies: (session.apply_policies as unknown[]).map((id) => (typeof id === 'string' ? policy(row.org_id, id) : id)) }
        : {};
      const single =
        typeof session.apply_policy_id === 'string' && session.apply_policy_id !== '' ? { apply_policy_id: policy(row.org_id, session.apply_policy_id) } : {};
      return { ...row, session: { ...session, ...accessRights(session.access_rights, (id) => api(row.org_id, id)), ...applied, ...single } };
    }),
  };
}

/**
 * The other way: for a gateway serving every organisation, each served API id -> its organisation and its own id
 * (an analytics record names the id the gateway served). Rows ordered as for oneIdSpace.
 */
export function servedApiIds(rows: readonly { id: string; org_id: string }[]): Map<string, { id: string; org_id: string }> {
  const renamed = renames(rows);
  return new Map(rows.map((row) => [renamed.get(row.org_id)?.get(row.id) ?? row.id, { id: row.id, org_id: row.org_id }]));
}

/** The keys served (the first row of each storage id) and the organisations whose keys an older one shadows. */
export function oneKeyPerStorageId(keys: readonly NodeKey[]): { served: NodeKey[]; shadowedOrgs: Set<string> } {
  const seen = new Set<string>();
  const shadowedOrgs = new Set<string>();
  const served = keys.filter((key) => {
    if (!seen.has(key.storage_id)) return seen.add(key.storage_id);
    shadowedOrgs.add(key.org_id);
    return false;
  });
  return { served, shadowedOrgs };
}

/** Per organisation: the ids it is served under when another organisation took them first. */
function renames(rows: readonly { id: string; org_id: string }[]): Map<string, Map<string, string>> {
  const taken = new Set(rows.map((row) => row.id));
  const owner = new Map<string, string>();
  const result = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const first = owner.get(row.id);
    if (first === undefined) {
      owner.set(row.id, row.org_id);
      continue;
    }
    if (first === row.org_id) continue;
    let renamed = `${row.id}~${row.org_id}`;
    while (taken.has(renamed)) renamed = `${renamed}~`;
    taken.add(renamed);
    const forOrg = result.get(row.org_id) ?? new Map<string, string>();
    forOrg.set(row.id, renamed);
    result.set(row.org_id, forOrg);
  }
  return result;
}

/** `{access_rights}` with its keys and each entry's api_id renamed (nothing when there are none). */
function accessRights(value: unknown, rename: (id: string) => string): { access_rights?: Record<string, unknown> } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const renamed: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
    const to = rename(id);
    renamed[to] = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? { ...entry, api_id: to } : entry;
  }
  return { access_rights: renamed };
}
