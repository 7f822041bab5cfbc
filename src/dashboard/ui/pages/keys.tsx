// Keys: the organisation's keys, paged and searched (parts/key-list.tsx; the dashboard stores hashes, so a key
// itself is never listed again) and a form
// for a new one from a policy with the UI-only options of gw's design: alias, detailed logging (off by default),
// tags and metadata. The new key is shown once, in a modal dialog (over the page, so nothing below it moves), with a
// warning that it will not be shown again.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, errorAt } from '../api-client.ts';
import { Field } from '../parts/field.tsx';
import { KeyList } from '../parts/key-list.tsx';
import { OneTimeSecret } from '../parts/one-time-secret.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { mayWrite, type SessionView } from '../session.ts';
import { STATE_LABELS } from './policies.tsx';

interface PolicyChoice {
  id: string;
  name: string;
  state?: string;
}

export function KeysPage({ session }: { session: SessionView }) {
  const [version, setVersion] = useState(0);
  const [policies, setPolicies] = useState<PolicyChoice[]>([]);
  const [error, setError] = useState<unknown>();
  const [policy, setPolicy] = useState('');
  const [alias, setAlias] = useState('');
  const [detailed, setDetailed] = useState(false);
  const [tags, setTags] = useState('');
  const [metadata, setMetadata] = useState('{}');
  const [formError, setFormError] = useState<ApiError | Error | undefined>();
  const [created, setCreated] = useState<string | undefined>();

  useEffect(() => {
    call<{ Data: PolicyChoice[] }>('GET', '/api/portal/policies?p=-2').then(
      ({ data }) => setPolicies(data.Data),
      (e: unknown) => setError(e),
    );
  }, []);

  if (error) return <Problem error={error} what="list the keys" />;
  const fieldError = (field: string): string | undefined => errorAt(formError, field);

  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    setCreated(undefined);
    let meta: unknown;
    try {
      meta = JSON.parse(metadata === '' ? '{}' : metadata);
    } catch {
      setFormError(new ApiError(400, 'meta_data: must be a JSON object'));
      return;
    }
    const key = {
      ...(policy ? { apply_policies: [policy] } : {}),
      ...(alias ? { alias } : {}),
      enable_detailed_recording: detailed,
      tags: tags
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
      meta_data: meta,
    };
    try {
      const { data } = await call<{ key?: string; key_id?: string }>('POST', '/api/keys', key);
      setCreated(data.key ?? data.key_id);
      setVersion(version + 1);
    } catch (e) {
      setFormError(e instanceof Error ? e : new Error(String(e)));
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Keys</h1>
      <KeyList policyNames={new Map(policies.map((p) => [p.id, p.name]))} writable={mayWrite(session, 'keys')} version={version} />
      {created && <OneTimeSecret title="Your new key" value={created} onClose={() => setCreated(undefined)} />}
      {mayWrite(session, 'keys') && (
        <form class="card" onSubmit={(e) => void create(e)} noValidate aria-labelledby="new-key-title">
          <h2 id="new-key-title">New key</h2>
          <Field id="key-policy" label="Policy" error={fieldError('apply_policies')}>
            {(d, invalid) => (
              <select id="key-policy" value={policy} aria-describedby={d} aria-invalid={invalid} onChange={(e) => setPolicy(e.currentTarget.value)}>
                <option value="">No policy</option>
                {policies.map((p) => (
                  <option key={p.id} value={p.id} disabled={(p.state ?? 'active') !== 'active'}>
                    {p.name} ({STATE_LABELS[p.state ?? 'active']})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="key-alias" label="Alias" hint="A readable name for this key in analytics" error={fieldError('alias')}>
            {(d, invalid) => (
              <input id="key-alias" value={alias} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setAlias(e.currentTarget.value)} />
            )}
          </Field>
          <label class="checks">
            <input type="checkbox" checked={detailed} onChange={(e) => setDetailed(e.currentTarget.checked)} /> Detailed logging (record request and response
            bodies of this key)
          </label>
          <Field id="key-tags" label="Tags" hint="Separated by commas" error={fieldError('tags')}>
            {(d, invalid) => <input id="key-tags" value={tags} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setTags(e.currentTarget.value)} />}
          </Field>
          <Field id="key-metadata" label="Metadata (JSON object)" error={fieldError('meta_data')}>
            {(d, invalid) => (
              <textarea
                id="key-metadata"
                rows={4}
                spellcheck={false}
                value={metadata}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => setMetadata(e.currentTarget.value)}
              />
            )}
          </Field>
          <FormAlert error={formError} />
          <div class="actions">
            <button type="submit">Create key</button>
          </div>
        </form>
      )}
    </section>
  );
}
