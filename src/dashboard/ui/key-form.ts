// The key page's form and the key (Tyk's session object, as GET /api/keys/{id} answers it in `data`) it edits:
// alias, expiry, applied policies, the key's own limits (rate/per, throttle, quota: the policies' win while any is
// applied, so the page offers them only without one) and is_inactive. Pure functions; every field the form does not
// show (access_rights, meta_data, tags, quota counters, ...) is sent back as it was.
import { LIMIT_FIELDS, limitsOf, limitValues, type LimitInputs } from './policy-form.ts';

type Json = Record<string, unknown>;

export interface KeyInputs {
  alias: string;
  /** `YYYY-MM-DDTHH:MM` in UTC (a datetime-local input's value), '' for never. */
  expires: string;
  policies: string[];
  limits: LimitInputs;
  inactive: boolean;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Unix seconds as a datetime-local value in UTC; '' for 0 or -1 (never). */
export function expiryInput(expires: unknown): string {
  if (typeof expires !== 'number' || expires <= 0) return '';
  const d = new Date(expires * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** A datetime-local value (UTC) as Unix seconds; 0 (never) for ''; the text itself when it is no date (the
 * dashboard then refuses `expires`). */
export function expiresOf(input: string): number | string {
  if (input.trim() === '') return 0;
  const ms = Date.parse(`${input.trim()}Z`);
  return Number.isNaN(ms) ? input : Math.floor(ms / 1000);
}

export function keyInputsOf(session: Json): KeyInputs {
  return {
    alias: typeof session.alias === 'string' ? session.alias : '',
    expires: expiryInput(session.expires),
    policies: Array.isArray(session.apply_policies) ? session.apply_policies.map(String) : [],
    limits: limitsOf(session),
    inactive: session.is_inactive === true,
  };
}

/** The key with the form's inputs written into the stored one; the limits only when no policy is applied (with
 * one, the stored limits are kept: the gateway takes the policy's). */
export function keyOf(inputs: KeyInputs, stored: Json): Json {
  const key: Json = { ...stored, alias: inputs.alias, expires: expiresOf(inputs.expires), apply_policies: inputs.policies, is_inactive: inputs.inactive };
  delete key.apply_policy_id;
  if (inputs.policies.length === 0) {
    for (const field of LIMIT_FIELDS) delete key[field];
    Object.assign(key, limitValues(inputs.limits));
  }
  return key;
}

/** When the current quota period ends, for people; undefined when the key has no quota period running. */
export function quotaRenewsText(session: Json): string | undefined {
  return typeof session.quota_renews === 'number' && session.quota_renews > 0 ? new Date(session.quota_renews * 1000).toISOString() : undefined;
}
