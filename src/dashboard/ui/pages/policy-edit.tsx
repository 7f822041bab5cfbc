// One security policy's page (#/policies/new, #/policies/<id>): name, state, a required key expiry, the policy's
// rate limit, quota and throttling, the APIs it grants each with its own limits and path permissions (Tyk's
// `allowed_urls`), partitions and tags. Delete asks first, saying how many keys apply the policy and what happens
// to them (a key whose only policy it was is refused by the gateway). A policy written from a Kubernetes object
// shows a badge and, unless the organisation allows hand edits, stays read-only with the `kubectl edit` to use.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, errorAt } from '../api-client.ts';
import { ConfirmDialog } from '../parts/confirm-dialog.tsx';
import { Field } from '../parts/field.tsx';
import { LimitInputsFields } from '../parts/limit-inputs.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { noLimits, policyInputsOf, policyOf, type PolicyInputs } from '../policy-form.ts';
import { href, navigate } from '../router.ts';
import { k8sOwnedReadOnly, kubectlEdit, mayWrite, operatorManaged, type SessionView } from '../session.ts';
import { EXPIRY_CHOICES, STATE_LABELS } from './policies.tsx';

const PARTITIONS = [
  { key: 'acl', label: 'Access rights' },
  { key: 'rate_limit', label: 'Rate limit' },
  { key: 'quota', label: 'Quota' },
];

interface ApiChoice {
  id: string;
  name: string;
}

interface Usage {
  keys: number;
  only_policy: number;
}

const EMPTY: PolicyInputs = { name: '', state: 'active', keyExpiresIn: '', limits: noLimits(), access: [], partitions: [], tags: '' };

export function PolicyEditPage({ session, id }: { session: SessionView; id?: string | undefined }) {
  const [stored, setStored] = useState<Record<string, unknown> | undefined>(id === undefined ? {} : undefined);
  const [inputs, setInputs] = useState<PolicyInputs>(EMPTY);
  const [apis, setApis] = useState<ApiChoice[]>([]);
  const [k8sObject, setK8sObject] = useState<string | undefined>();
  const [loadError, setLoadError] = useState<unknown>();
  const [formError, setFormError] = useState<ApiError | Error | undefined>();
  const [usage, setUsage] = useState<Usage | undefined>();
  const [deleteError, setDeleteError] = useState<string | undefined>();

  useEffect(() => {
    call<{ apis: { api_definition: { api_id: string; name: string } }[] }>('GET', '/api/apis?p=-2').then(
      ({ data }) => setApis(data.apis.map((a) => ({ id: a.api_definition.api_id, name: a.api_definition.name }))),
      () => setApis([]),
    );
    if (id === undefined) return;
    call<Record<string, unknown>>('GET', `/api/portal/policies/${encodeURIComponent(id)}`).then(
      ({ data, headers }) => {
        setStored(data);
        setInputs(policyInputsOf(data));
        setK8sObject(headers.get('x-gw-k8s-object') ?? undefined);
      },
      (e: unknown) => setLoadError(e),
    );
  }, [id]);

  if (loadError) return <Problem error={loadError} what="open the policy" />;
  if (stored === undefined) return <p role="status">Loading the policy…</p>;
  const readOnly = !mayWrite(session, 'policies') || (k8sObject !== undefined && k8sOwnedReadOnly(session));
  const fieldError = (field: string): string | undefined => errorAt(formError, field);
  const set = (change: Partial<PolicyInputs>): void => setInputs({ ...inputs, ...change });
  const storedName = typeof stored.name === 'string' ? stored.name : (id ?? '');
  const title = id === undefined ? 'New policy' : `Policy: ${storedName}`;

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    if (inputs.keyExpiresIn === '') {
      setFormError(new ApiError(400, 'key_expires_in: choose when keys created under this policy expire'));
      return;
    }
    try {
      const policy = policyOf(inputs, stored);
      if (id === undefined) await call('POST', '/api/portal/policies', policy);
      else await call('PUT', `/api/portal/policies/${encodeURIComponent(id)}`, policy);
      navigate('policies');
    } catch (e) {
      setFormError(e instanceof Error ? e : new Error(String(e)));
    }
  };
  const askDelete = async (): Promise<void> => {
    setDeleteError(undefined);
    try {
      setUsage((await call<Usage>('GET', `/api/portal/policies/${encodeURIComponent(id!)}/usage`)).data);
    } catch (e) {
      setFormError(e instanceof Error ? e : new Error(String(e)));
    }
  };
  const confirmDelete = async (): Promise<void> => {
    try {
      await call('DELETE', `/api/portal/policies/${encodeURIComponent(id!)}`);
      navigate('policies');
    } catch (e) {
      setDeleteError(e instanceof Error ? e.message : String(e));
    }
  };
  const grant = (api: ApiChoice, on: boolean): void =>
    set({
      access: on
        ? [...inputs.access, { api_id: api.id, api_name: api.name, limit: noLimits(), allowedUrls: '' }]
        : inputs.access.filter((a) => a.api_id !== api.id),
    });
  // APIs granted that the list does not show (another page of APIs, or deleted since) stay choosable.
  const choices = [...apis, ...inputs.access.filter((a) => !apis.some((api) => api.id === a.api_id)).map((a) => ({ id: a.api_id, name: a.api_name }))];
  const expiryChoices =
    EXPIRY_CHOICES.some((c) => String(c.seconds) === inputs.keyExpiresIn) || inputs.keyExpiresIn === ''
      ? EXPIRY_CHOICES
      : [...EXPIRY_CHOICES, { seconds: Number(inputs.keyExpiresIn), label: `${inputs.keyExpiresIn} seconds` }];

  return (
    <section aria-labelledby="policy-title">
      <p>
        <a href={href('policies')}>← Policies</a>
      </p>
      <h1 id="policy-title">{title}</h1>
      {k8sObject !== undefined && (
        <p class="managed-note" role="note">
          <span class="badge">From Kubernetes: {k8sObject}</span>{' '}
          {k8sOwnedReadOnly(session)
            ? 'Read-only here: the operator would put the old policy back. Change it with '
            : 'Hand edits are allowed, but the next change in the cluster overwrites them. Change it with '}
          <code>{kubectlEdit(k8sObject)}</code>.
        </p>
      )}
      {operatorManaged(session) && k8sObject === undefined && (
        <p class="managed-note" role="note">
          This organisation's policies are managed by the operator: shown read-only.
        </p>
      )}
      <form class="card" onSubmit={(e) => void save(e)} noValidate aria-labelledby="policy-title">
        <Field id="policy-name" label="Name" error={fieldError('name')}>
          {(d, invalid) => (
            <input
              id="policy-name"
              required
              value={inputs.name}
              disabled={readOnly}
              aria-describedby={d}
              aria-invalid={invalid}
              onInput={(e) => set({ name: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field
          id="policy-state"
          label="State"
          hint="Draft: existing keys keep working, no new keys. Access Denied: every key is refused."
          error={fieldError('state')}
        >
          {(d, invalid) => (
            <select
              id="policy-state"
              value={inputs.state}
              disabled={readOnly}
              aria-describedby={d}
              aria-invalid={invalid}
              onChange={(e) => set({ state: e.currentTarget.value })}
            >
              {Object.entries(STATE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id="policy-expiry"
          label="Key expiry (required)"
          hint="When keys created under this policy expire (key_expires_in)"
          error={fieldError('key_expires_in')}
        >
          {(d, invalid) => (
            <select
              id="policy-expiry"
              required
              value={inputs.keyExpiresIn}
              disabled={readOnly}
              aria-describedby={d}
              aria-invalid={invalid}
              onChange={(e) => set({ keyExpiresIn: e.currentTarget.value })}
            >
              <option value="" disabled>
                Choose…
              </option>
              {expiryChoices.map((c) => (
                <option key={c.seconds} value={String(c.seconds)}>
                  {c.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset>
          <legend>Rate limit, quota and throttling (empty: not set)</legend>
          <LimitInputsFields
            idPrefix="policy"
            labelPrefix=""
            value={inputs.limits}
            disabled={readOnly}
            onChange={(limits) => set({ limits })}
            errorOf={(f) => fieldError(f)}
          />
        </fieldset>
        <fieldset>
          <legend>Access rights</legend>
          {choices.length === 0 && <p class="field-hint">No APIs to grant yet.</p>}
          {choices.map((a) => (
            <label key={a.id} class="checks">
              <input
                type="checkbox"
                disabled={readOnly}
                checked={inputs.access.some((g) => g.api_id === a.id)}
                onChange={(e) => grant(a, e.currentTarget.checked)}
              />{' '}
              {a.name}
            </label>
          ))}
          <p class="field-hint">{fieldError('access_rights') ?? ' '}</p>
        </fieldset>
        {inputs.access.map((api, index) => {
          const update = (change: Partial<(typeof inputs.access)[number]>): void =>
            set({ access: inputs.access.map((a, i) => (i === index ? { ...a, ...change } : a)) });
          const prefix = `access_rights.${api.api_id}`;
          const pathsId = `policy-api-${index}-paths`;
          return (
            <fieldset key={api.api_id}>
              <legend>{api.api_name}: limits and paths</legend>
              <LimitInputsFields
                idPrefix={`policy-api-${index}`}
                labelPrefix={`${api.api_name}: `}
                value={api.limit}
                disabled={readOnly}
                onChange={(limit) => update({ limit })}
                errorOf={(f) => fieldError(`${prefix}.limit.${f}`)}
              />
              <Field
                id={pathsId}
                label={`${api.api_name}: allowed paths`}
                hint="One per line: PATH [METHODS], e.g. /users/{id} GET,PUT. Empty: every path."
                error={fieldError(`${prefix}.allowed_urls`)}
              >
                {(d, invalid) => (
                  <textarea
                    id={pathsId}
                    rows={3}
                    value={api.allowedUrls}
                    disabled={readOnly}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onInput={(e) => update({ allowedUrls: e.currentTarget.value })}
                  />
                )}
              </Field>
            </fieldset>
          );
        })}
        <fieldset>
          <legend>Partitions (none: the policy manages the whole key)</legend>
          {PARTITIONS.map((p) => (
            <label key={p.key} class="checks">
              <input
                type="checkbox"
                disabled={readOnly}
                checked={inputs.partitions.includes(p.key)}
                onChange={(e) => set({ partitions: e.currentTarget.checked ? [...inputs.partitions, p.key] : inputs.partitions.filter((x) => x !== p.key) })}
              />{' '}
              {p.label}
            </label>
          ))}
        </fieldset>
        <Field id="policy-tags" label="Tags" hint="Separated by commas; used to filter analytics" error={fieldError('tags')}>
          {(d, invalid) => (
            <input
              id="policy-tags"
              value={inputs.tags}
              disabled={readOnly}
              aria-describedby={d}
              aria-invalid={invalid}
              onInput={(e) => set({ tags: e.currentTarget.value })}
            />
          )}
        </Field>
        <FormAlert error={formError} />
        {!readOnly && (
          <div class="actions">
            <button type="submit">{id === undefined ? 'Create policy' : 'Save policy'}</button>
            {id !== undefined && (
              <button type="button" class="danger" onClick={() => void askDelete()}>
                Delete policy
              </button>
            )}
          </div>
        )}
      </form>
      {usage !== undefined && (
        <ConfirmDialog
          title={`Delete the policy ${storedName}?`}
          confirmLabel="Delete"
          error={deleteError}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setUsage(undefined)}
        >
          <p>
            {usage.keys === 0
              ? 'No key applies this policy.'
              : `${usage.keys} ${usage.keys === 1 ? 'key applies' : 'keys apply'} this policy. ${usage.only_policy} of them apply no other policy: a gateway refuses ${usage.only_policy === 1 ? 'it' : 'them'} (403) once the policy is deleted; the others keep the rights of their other policies.`}
          </p>
          <p>Deleting cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
