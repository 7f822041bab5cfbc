// Security policies: the list with each policy's state under gw\'s documented UI labels (Active, Draft, Access Denied)
// and a form for a new one, where key expiry is a required choice (no default is preselected), partitions choose
// which parts of a key the policy manages, and access rights pick the organisation's APIs.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, errorAt } from '../api-client.ts';
import { Field } from '../parts/field.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { mayWrite, operatorManaged, type SessionView } from '../session.ts';

export const STATE_LABELS: Record<string, string> = { active: 'Active', draft: 'Draft', deny: 'Access Denied' };

const EXPIRY_CHOICES: { seconds: number; label: string }[] = [
  { seconds: 0, label: 'Never' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
  { seconds: 365 * 86_400, label: '1 year' },
];

const PARTITIONS = [
  { key: 'acl', label: 'Access rights' },
  { key: 'rate_limit', label: 'Rate limit' },
  { key: 'quota', label: 'Quota' },
];

interface StoredPolicy {
  id: string;
  name: string;
  state?: string;
  rate?: number;
  per?: number;
  key_expires_in?: number;
  tags?: string[];
}

interface ApiChoice {
  id: string;
  name: string;
}

export function PoliciesPage({ session }: { session: SessionView }) {
  const [policies, setPolicies] = useState<StoredPolicy[] | undefined>();
  const [apis, setApis] = useState<ApiChoice[]>([]);
  const [error, setError] = useState<unknown>();
  const [name, setName] = useState('');
  const [state, setState] = useState('active');
  const [expiry, setExpiry] = useState('');
  const [rate, setRate] = useState('');
  const [per, setPer] = useState('');
  const [granted, setGranted] = useState<string[]>([]);
  const [partitions, setPartitions] = useState<string[]>([]);
  const [tags, setTags] = useState('');
  const [formError, setFormError] = useState<ApiError | Error | undefined>();
  const [saved, setSaved] = useState('');

  const load = (): void => {
    call<{ Data: StoredPolicy[] }>('GET', '/api/portal/policies?p=-2').then(
      ({ data }) => setPolicies(data.Data),
      (e: unknown) => setError(e),
    );
  };
  useEffect(() => {
    load();
    call<{ apis: { api_definition: { api_id: string; name: string } }[] }>('GET', '/api/apis?p=-2').then(
      ({ data }) => setApis(data.apis.map((a) => ({ id: a.api_definition.api_id, name: a.api_definition.name }))),
      () => setApis([]),
    );
  }, []);

  if (error) return <Problem error={error} what="list the policies" />;
  const writable = mayWrite(session, 'policies');
  const fieldError = (field: string): string | undefined => errorAt(formError, field);

  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    setSaved('');
    if (expiry === '') {
      setFormError(new ApiError(400, 'key_expires_in: choose when keys created under this policy expire'));
      return;
    }
    const number = (text: string): number | string => (/^\d+$/.test(text.trim()) ? Number(text) : text);
    const policy = {
      name,
      state,
      key_expires_in: Number(expiry),
      ...(rate.trim() !== '' ? { rate: number(rate) } : {}),
      ...(per.trim() !== '' ? { per: number(per) } : {}),
      access_rights: Object.fromEntries(granted.map((id) => [id, { api_id: id, api_name: apis.find((a) => a.id === id)?.name ?? id, versions: [] }])),
      ...(partitions.length > 0 ? { partitions: Object.fromEntries(partitions.map((p) => [p, true])) } : {}),
      tags: tags
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    };
    try {
      await call('POST', '/api/portal/policies', policy);
      setSaved(`Policy ${name} created.`);
      setName('');
      load();
    } catch (e) {
      setFormError(e instanceof Error ? e : new Error(String(e)));
    }
  };

  return (
    <section aria-labelledby="policies-title">
      <h1 id="policies-title">Policies</h1>
      {operatorManaged(session) && (
        <p class="managed-note" role="note">
          This organisation's policies are managed by the operator: shown read-only.
        </p>
      )}
      <p class="count" role="status">
        {policies === undefined ? 'Loading policies…' : `${policies.length} ${policies.length === 1 ? 'policy' : 'policies'}`}
      </p>
      <table class="list" aria-labelledby="policies-title">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">State</th>
            <th scope="col">Rate limit</th>
            <th scope="col">Key expiry</th>
            <th scope="col">Tags</th>
          </tr>
        </thead>
        <tbody>
          {(policies ?? []).map((p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td>{STATE_LABELS[p.state ?? 'active'] ?? p.state}</td>
              <td>{p.rate ? `${p.rate} per ${p.per ?? 0} s` : 'none'}</td>
              <td>{EXPIRY_CHOICES.find((c) => c.seconds === (p.key_expires_in ?? 0))?.label ?? `${p.key_expires_in} s`}</td>
              <td>{(p.tags ?? []).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {writable && (
        <form class="card" onSubmit={(e) => void create(e)} noValidate aria-labelledby="new-policy-title">
          <h2 id="new-policy-title">New policy</h2>
          <p class="message ok" role="status">
            {saved || ' '}
          </p>
          <Field id="policy-name" label="Name" error={fieldError('name')}>
            {(d, invalid) => (
              <input id="policy-name" required value={name} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setName(e.currentTarget.value)} />
            )}
          </Field>
          <Field
            id="policy-state"
            label="State"
            hint="Draft: existing keys keep working, no new keys. Access Denied: every key is refused."
            error={fieldError('state')}
          >
            {(d, invalid) => (
              <select id="policy-state" value={state} aria-describedby={d} aria-invalid={invalid} onChange={(e) => setState(e.currentTarget.value)}>
                {Object.entries(STATE_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="policy-expiry" label="Key expiry (required)" hint="When keys created under this policy expire" error={fieldError('key_expires_in')}>
            {(d, invalid) => (
              <select id="policy-expiry" required value={expiry} aria-describedby={d} aria-invalid={invalid} onChange={(e) => setExpiry(e.currentTarget.value)}>
                <option value="" disabled>
                  Choose…
                </option>
                {EXPIRY_CHOICES.map((c) => (
                  <option key={c.seconds} value={String(c.seconds)}>
                    {c.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div class="pair">
            <Field id="policy-rate" label="Rate (requests)" error={fieldError('rate')}>
              {(d, invalid) => (
                <input
                  id="policy-rate"
                  inputMode="numeric"
                  value={rate}
                  aria-describedby={d}
                  aria-invalid={invalid}
                  onInput={(e) => setRate(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field id="policy-per" label="Per (seconds)" error={fieldError('per')}>
              {(d, invalid) => (
                <input
                  id="policy-per"
                  inputMode="numeric"
                  value={per}
                  aria-describedby={d}
                  aria-invalid={invalid}
                  onInput={(e) => setPer(e.currentTarget.value)}
                />
              )}
            </Field>
          </div>
          <fieldset>
            <legend>Access rights</legend>
            {apis.length === 0 && <p class="field-hint">No APIs to grant yet.</p>}
            {apis.map((a) => (
              <label key={a.id} class="checks">
                <input
                  type="checkbox"
                  checked={granted.includes(a.id)}
                  onChange={(e) => setGranted(e.currentTarget.checked ? [...granted, a.id] : granted.filter((g) => g !== a.id))}
                />{' '}
                {a.name}
              </label>
            ))}
            <p class="field-hint">{fieldError('access_rights') ?? ' '}</p>
          </fieldset>
          <fieldset>
            <legend>Partitions (none: the policy manages the whole key)</legend>
            {PARTITIONS.map((p) => (
              <label key={p.key} class="checks">
                <input
                  type="checkbox"
                  checked={partitions.includes(p.key)}
                  onChange={(e) => setPartitions(e.currentTarget.checked ? [...partitions, p.key] : partitions.filter((x) => x !== p.key))}
                />{' '}
                {p.label}
              </label>
            ))}
          </fieldset>
          <Field id="policy-tags" label="Tags" hint="Separated by commas; used to filter analytics" error={fieldError('tags')}>
            {(d, invalid) => (
              <input id="policy-tags" value={tags} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setTags(e.currentTarget.value)} />
            )}
          </Field>
          <FormAlert error={formError} />
          <div class="actions">
            <button type="submit">Create policy</button>
          </div>
        </form>
      )}
    </section>
  );
}
