// One key's page (#/keys/<storage id>, from the key list): what GET /api/keys/{id}?hashed=true answers — alias,
// policies by name, expiry, state, limits and the quota as the dashboard holds it (remaining, renews at), and the
// access rights per API (versions, allowed URLs and methods, per-API limits) — and a form that edits alias, expiry,
// policies, the key's own limits (only without a policy: Tyk takes a policy's) and is_inactive (likewise: with a
// policy its state decides). Revoke deletes the key after a confirmation; gateways refuse it from their next sync.
import { useEffect, useState } from 'preact/hooks';
import { call, errorAt, type ApiError } from '../api-client.ts';
import { keyInputsOf, keyOf, quotaRenewsText, type KeyInputs } from '../key-form.ts';
import { allowedUrlsText, type LimitField } from '../policy-form.ts';
import { ConfirmDialog } from '../parts/confirm-dialog.tsx';
import { Field } from '../parts/field.tsx';
import { LimitInputsFields } from '../parts/limit-inputs.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { href, navigate } from '../router.ts';
import { mayWrite, type SessionView } from '../session.ts';

type Json = Record<string, unknown>;

interface PolicyChoice {
  id: string;
  name: string;
}

const objectAt = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const numberText = (value: unknown, none: string): string => (typeof value === 'number' && value >= 0 ? String(value) : none);

export function KeyPage({ session, id }: { session: SessionView; id: string }) {
  const path = `/api/keys/${encodeURIComponent(id)}?hashed=true`;
  const [stored, setStored] = useState<Json | undefined>();
  const [inputs, setInputs] = useState<KeyInputs | undefined>();
  const [policies, setPolicies] = useState<PolicyChoice[]>([]);
  const [loadError, setLoadError] = useState<unknown>();
  const [formError, setFormError] = useState<ApiError | Error | undefined>();
  const [saved, setSaved] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const [revokeError, setRevokeError] = useState<string | undefined>();
  const writable = mayWrite(session, 'keys');

  useEffect(() => {
    Promise.all([call<{ data: Json }>('GET', path), call<{ Data: PolicyChoice[] }>('GET', '/api/portal/policies?p=-2')]).then(
      ([key, list]) => {
        setStored(key.data.data);
        setInputs(keyInputsOf(key.data.data));
        setPolicies(list.data.Data);
      },
      (e: unknown) => setLoadError(e),
    );
  }, [path]);

  if (loadError) return <Problem error={loadError} what="open the key" />;
  if (stored === undefined || inputs === undefined) return <p role="status">Loading the key…</p>;

  const name = typeof stored.alias === 'string' && stored.alias !== '' ? stored.alias : id;
  const policyName = (pid: string): string => policies.find((p) => p.id === pid)?.name ?? pid;
  const withPolicy = inputs.policies.length > 0;
  const set = (change: Partial<KeyInputs>): void => {
    setSaved(false);
    setInputs((current) => current && { ...current, ...change });
  };

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    setSaved(false);
    const key = keyOf(inputs, stored);
    try {
      await call('PUT', path, key);
      setStored(key);
      setSaved(true);
    } catch (e) {
      setFormError(e instanceof Error ? e : new Error(String(e)));
    }
  };
  const revoke = async (): Promise<void> => {
    try {
      await call('DELETE', path);
      navigate('keys');
    } catch (e) {
      setRevokeError(e instanceof Error ? e.message : String(e));
    }
  };

  const renews = quotaRenewsText(stored);
  const quotaMax = typeof stored.quota_max === 'number' ? stored.quota_max : -1;
  const facts: [string, string][] = [
    ['Policies', (Array.isArray(stored.apply_policies) ? stored.apply_policies.map((p) => policyName(String(p))) : []).join(', ') || 'none'],
    ['Expires', typeof stored.expires === 'number' && stored.expires > 0 ? new Date(stored.expires * 1000).toISOString() : 'Never'],
    ['State', stored.is_inactive === true ? 'Inactive' : 'Active'],
    ['Rate limit', typeof stored.rate === 'number' && stored.rate > 0 ? `${stored.rate} per ${numberText(stored.per, '?')} s` : 'none'],
    [
      'Throttling',
      typeof stored.throttle_retry_limit === 'number' && stored.throttle_retry_limit > 0
        ? `${stored.throttle_retry_limit} retries, every ${numberText(stored.throttle_interval, '?')} s`
        : 'none',
    ],
    ['Quota', quotaMax > 0 ? `${quotaMax} per ${numberText(stored.quota_renewal_rate, '?')} s` : 'unlimited'],
    ['Quota remaining', quotaMax > 0 ? numberText(stored.quota_remaining, String(quotaMax)) : '—'],
    ['Quota renews at', renews ?? '—'],
  ];
  const rights = Object.entries(objectAt(stored.access_rights)).map(([apiId, value]) => ({ apiId, right: objectAt(value) }));
  const limitError = (field: LimitField): string | undefined => errorAt(formError, field);

  return (
    <section aria-labelledby="key-title">
      <p>
        <a href={href('keys')}>← Keys</a>
      </p>
      <h1 id="key-title">Key {name}</h1>
      <dl class="details">
        <dt>Key id</dt>
        <dd>
          <code>{id}</code>
        </dd>
        {facts.map(([term, value]) => [<dt key={`${term}-t`}>{term}</dt>, <dd key={`${term}-d`}>{value}</dd>])}
      </dl>
      <table class="list" aria-label="Access rights">
        <thead>
          <tr>
            <th scope="col">API</th>
            <th scope="col">Versions</th>
            <th scope="col">Allowed URLs and methods</th>
            <th scope="col">Limits</th>
          </tr>
        </thead>
        <tbody>
          {rights.length === 0 && (
            <tr>
              <td colSpan={4}>Through its policies only.</td>
            </tr>
          )}
          {rights.map(({ apiId, right }) => {
            const limit = objectAt(right.limit);
            return (
              <tr key={apiId}>
                <td>{typeof right.api_name === 'string' && right.api_name !== '' ? right.api_name : apiId}</td>
                <td>{(Array.isArray(right.versions) ? right.versions.join(', ') : '') || 'all'}</td>
                <td class="whole">{allowedUrlsText(right.allowed_urls) || 'every path'}</td>
                <td>{typeof limit.rate === 'number' ? `${limit.rate} per ${numberText(limit.per, '?')} s` : 'the key’s'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {writable && (
        <form class="card" onSubmit={(e) => void save(e)} noValidate aria-labelledby="key-edit-title">
          <h2 id="key-edit-title">Edit the key</h2>
          <Field id="key-alias" label="Alias" error={errorAt(formError, 'alias')}>
            {(d, invalid) => (
              <input id="key-alias" value={inputs.alias} aria-describedby={d} aria-invalid={invalid} onInput={(e) => set({ alias: e.currentTarget.value })} />
            )}
          </Field>
          <Field id="key-expires" label="Expires (UTC)" hint="Empty: never" error={errorAt(formError, 'expires')}>
            {(d, invalid) => (
              <input
                id="key-expires"
                type="datetime-local"
                value={inputs.expires}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => set({ expires: e.currentTarget.value })}
              />
            )}
          </Field>
          <fieldset class="checks" aria-describedby="key-policies-note">
            <legend>Policies</legend>
            {policies.map((p) => (
              <label key={p.id}>
                <input
                  type="checkbox"
                  checked={inputs.policies.includes(p.id)}
                  onChange={(e) => set({ policies: e.currentTarget.checked ? [...inputs.policies, p.id] : inputs.policies.filter((x) => x !== p.id) })}
                />{' '}
                {p.name}
              </label>
            ))}
            <p id="key-policies-note" class={errorAt(formError, 'apply_policies') ? 'field-error' : 'field-hint'}>
              {errorAt(formError, 'apply_policies') ?? (policies.length === 0 ? 'The organisation has no policies.' : ' ')}
            </p>
          </fieldset>
          <fieldset disabled={withPolicy} aria-describedby="key-limits-note">
            <legend>The key’s own limits</legend>
            <p id="key-limits-note" class="field-hint">
              {withPolicy ? 'Set by its policies while one is applied.' : 'Empty: none (quota -1: unlimited).'}
            </p>
            <LimitInputsFields
              idPrefix="key"
              labelPrefix=""
              value={inputs.limits}
              disabled={withPolicy}
              onChange={(limits) => set({ limits })}
              errorOf={limitError}
            />
            <label class="checks">
              <input type="checkbox" checked={inputs.inactive} onChange={(e) => set({ inactive: e.currentTarget.checked })} /> Inactive (gateways refuse the
              key)
            </label>
          </fieldset>
          <FormAlert error={formError} />
          <p class="message ok" role="status">
            {saved ? 'Saved.' : ' '}
          </p>
          <div class="actions">
            <button type="submit">Save key</button>
            <button type="button" class="danger" onClick={() => setRevoking(true)}>
              Revoke key
            </button>
          </div>
        </form>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke the key ${name}?`}
          confirmLabel="Revoke"
          error={revokeError}
          onConfirm={() => void revoke()}
          onCancel={() => {
            setRevoking(false);
            setRevokeError(undefined);
          }}
        >
          <p>The key is deleted: gateways refuse it from their next sync with the dashboard. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
