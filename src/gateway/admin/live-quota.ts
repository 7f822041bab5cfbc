// The key GET /gw/keys/{id} answers with: policy-merged, and with the quota as it stands now. quota_remaining and
// quota_renews (Unix seconds) come from the live counter — the key's shared one, or for an API with its own limit
// that API's counter, reported in access_rights[api].limit. A period that has ended reads as a full quota.
import type { Session } from '../../domain/session.ts';
import type { EffectiveSession } from '../session/apply-policies.ts';
import type { Store } from '../store/store.ts';

export async function liveQuota(store: Store, storageId: string, effective: EffectiveSession, now: number): Promise<Session> {
  const session: Session = structuredClone(effective.session);
  const shared = [...effective.access.values()].find((a) => a.scope === '') ?? [...effective.access.values()][0];
  const rootMax = session.quota_max ?? -1;
  if (rootMax > 0) {
    const counter = shared?.scope ? `${storageId}|${shared.scope}` : storageId;
    const state = await store.peekQuota({ key: counter, max: rootMax, renewalMs: Math.max(0, session.quota_renewal_rate ?? 0) * 1000 }, now);
    session.quota_remaining = state.remaining;
    session.quota_renews = Math.floor(state.renewsAt / 1000);
  } else {
    session.quota_remaining = rootMax;
  }
  for (const access of effective.access.values()) {
    const right = session.access_rights?.[access.apiId];
    if (!right?.limit || access.scope !== access.apiId) continue;
    const max = access.limits.quotaMax;
    if (max <= 0) continue;
    const state = await store.peekQuota({ key: `${storageId}|${access.scope}`, max, renewalMs: Math.max(0, access.limits.quotaRenewalRate) * 1000 }, now);
    Object.assign(right.limit, { quota_remaining: state.remaining, quota_renews: Math.floor(state.renewsAt / 1000) });
  }
  return session;
}
