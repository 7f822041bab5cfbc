// The policy form's inputs and the Tyk policy they live in: read them out of a stored policy and write them back,
// leaving every field the form does not show as it was. Limits (rate/per, quota_max/quota_renewal_rate,
// throttle_interval/throttle_retry_limit) exist on the policy and per API (`access_rights[id].limit`); path
// permissions are Tyk's `allowed_urls`, typed one per line as `PATH [METHOD,METHOD]`. Pure functions: a number field
// that is not a number is sent as typed, so the dashboard's refusal names the field.
type Json = Record<string, unknown>;

export const LIMIT_FIELDS = ['rate', 'per', 'quota_max', 'quota_renewal_rate', 'throttle_interval', 'throttle_retry_limit'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];
/** Each limit as typed; '' means not set. */
export type LimitInputs = Record<LimitField, string>;

export interface ApiAccessInputs {
  api_id: string;
  api_name: string;
  limit: LimitInputs;
  /** Tyk's allowed_urls, one `PATH [METHODS]` per line; empty: every path. */
  allowedUrls: string;
}

export interface PolicyInputs {
  name: string;
  state: string;
  /** Seconds as text; '' until chosen. */
  keyExpiresIn: string;
  limits: LimitInputs;
  access: ApiAccessInputs[];
  partitions: string[];
  /** Comma-separated. */
  tags: string;
}

const objectAt = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

export const noLimits = (): LimitInputs => ({ rate: '', per: '', quota_max: '', quota_renewal_rate: '', throttle_interval: '', throttle_retry_limit: '' });

export const limitsOf = (source: Json): LimitInputs =>
  Object.fromEntries(LIMIT_FIELDS.map((field) => [field, typeof source[field] === 'number' ? String(source[field]) : ''])) as LimitInputs;

/** A number when the text is one, else the text (refused by the dashboard at its field). */
function numberOr(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export const limitValues = (inputs: LimitInputs): Json =>
  Object.fromEntries(LIMIT_FIELDS.filter((field) => inputs[field].trim() !== '').map((field) => [field, numberOr(inputs[field])]));

/** allowed_urls as lines: `/users/{id} GET,PUT`, or the path alone for every method. */
export function allowedUrlsText(urls: unknown): string {
  if (!Array.isArray(urls)) return '';
  return urls
    .map((entry) => {
      const { url, methods } = objectAt(entry);
      const listed = Array.isArray(methods) ? methods.map(String) : [];
      return listed.length > 0 ? `${String(url)} ${listed.join(',')}` : String(url);
    })
    .join('\n');
}

/** Lines back into allowed_urls: methods upper-cased, separated by commas or spaces. */
export function parseAllowedUrls(text: string): { url: string; methods: string[] }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [url = '', ...rest] = line.split(/\s+/);
      const methods = rest
        .join(',')
        .split(',')
        .map((m) => m.trim().toUpperCase())
        .filter((m) => m !== '');
      return { url, methods };
    });
}

export function policyInputsOf(policy: Json): PolicyInputs {
  const rights = objectAt(policy.access_rights);
  return {
    name: typeof policy.name === 'string' ? policy.name : '',
    state: typeof policy.state === 'string' ? policy.state : 'active',
    keyExpiresIn: typeof policy.key_expires_in === 'number' ? String(policy.key_expires_in) : '',
    limits: limitsOf(policy),
    access: Object.entries(rights).map(([id, value]) => {
      const right = objectAt(value);
      return {
        api_id: id,
        api_name: typeof right.api_name === 'string' ? right.api_name : id,
        limit: limitsOf(objectAt(right.limit)),
        allowedUrls: allowedUrlsText(right.allowed_urls),
      };
    }),
    partitions: Object.entries(objectAt(policy.partitions))
      .filter(([, on]) => on === true)
      .map(([name]) => name),
    tags: Array.isArray(policy.tags) ? policy.tags.join(', ') : '',
  };
}

/** The policy with the form's inputs written into `base` (the stored policy, or {} for a new one). */
export function policyOf(inputs: PolicyInputs, base: Json = {}): Json {
  const policy: Json = { ...base };
  for (const field of LIMIT_FIELDS) delete policy[field];
  delete policy.partitions;
  const oldRights = objectAt(base.access_rights);
  const access_rights = Object.fromEntries(
    inputs.access.map((api) => {
      const right: Json = { versions: [], ...objectAt(oldRights[api.api_id]), api_id: api.api_id, api_name: api.api_name };
      delete right.limit;
      delete right.allowed_urls;
      const limit = limitValues(api.limit);
      if (Object.keys(limit).length > 0) right.limit = limit;
      const allowed = parseAllowedUrls(api.allowedUrls);
      if (allowed.length > 0) right.allowed_urls = allowed;
      return [api.api_id, right];
    }),
  );
  return {
    ...policy,
    name: inputs.name,
    state: inputs.state,
    ...(inputs.keyExpiresIn !== '' ? { key_expires_in: numberOr(inputs.keyExpiresIn) } : {}),
    ...limitValues(inputs.limits),
    access_rights,
    ...(inputs.partitions.length > 0 ? { partitions: Object.fromEntries(inputs.partitions.map((p) => [p, true])) } : {}),
    tags: inputs.tags
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== ''),
  };
}
