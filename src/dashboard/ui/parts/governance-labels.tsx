// The governance hub's labels on one API (when the dashboard has a hub: /api/governance/labels says
// `available: false` otherwise, and this section stays hidden without asking anything else, so no error is logged):
// each label the hub defines, as a choice of its allowed values or as free text, with the API's current value; a
// user with APIs write applies them (also in an operator-managed organisation: labels are not the definition).
// The hub's refusal (a value it does not allow) is shown under the labels.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api-client.ts';
import { access, type SessionView } from '../session.ts';

interface HubLabel {
  id: string;
  name: string;
  values: string[];
  value_type: 'free_text' | 'predefined';
}

export function GovernanceLabels({ apiId, session }: { apiId: string; session: SessionView }) {
  const [labels, setLabels] = useState<HubLabel[] | undefined>();
  const [applied, setApplied] = useState<Record<string, string>>({});
  const [values, setValues] = useState<Record<string, string>>({});
  const [hidden, setHidden] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();

  useEffect(() => {
    const path = `/api/apis/${encodeURIComponent(apiId)}/governance-labels`;
    const read = async (): Promise<void> => {
      const defined = await call<{ available: boolean; labels: HubLabel[] }>('GET', '/api/governance/labels');
      if (!defined.data.available) return setHidden(true);
      const current = await call<{ labels: Record<string, string> }>('GET', path);
      setLabels(defined.data.labels);
      setApplied(current.data.labels);
      setValues(current.data.labels);
    };
    read().catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404 && e.message.startsWith('no governance hub')) setHidden(true);
      else setMessage({ kind: 'error', text: `The governance labels could not be read: ${e instanceof Error ? e.message : String(e)}` });
    });
  }, [apiId]);

  if (hidden) return null;
  const writable = access(session, 'apis') === 'write';

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    setMessage(undefined);
    const changes: Record<string, string | null> = {};
    for (const label of labels ?? []) {
      const value = (values[label.name] ?? '').trim();
      if (value !== (applied[label.name] ?? '')) changes[label.name] = value === '' ? null : value;
    }
    try {
      const { data } = await call<{ labels: Record<string, string> }>('PATCH', `/api/apis/${encodeURIComponent(apiId)}/governance-labels`, { labels: changes });
      setApplied(data.labels);
      setValues(data.labels);
      setMessage({ kind: 'ok', text: 'Labels applied.' });
    } catch (e) {
      setMessage({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <form class="card" onSubmit={(e) => void save(e)} aria-labelledby="governance-title">
      <h2 id="governance-title">Governance labels</h2>
      <p class={`message ${message?.kind ?? ''}`} role={message?.kind === 'error' ? 'alert' : 'status'}>
        {message?.text ?? (labels === undefined ? 'Loading the labels…' : ' ')}
      </p>
      <fieldset class="permission-grid" disabled={!writable || labels === undefined}>
        <legend>Labels from the governance hub</legend>
        {(labels ?? []).map((label) => (
          <div class="field inline" key={label.id}>
            <label for={`governance-${label.id}`}>{label.name}</label>
            {label.value_type === 'predefined' ? (
              <select
                id={`governance-${label.id}`}
                value={values[label.name] ?? ''}
                onChange={(e) => setValues({ ...values, [label.name]: e.currentTarget.value })}
              >
                <option value="">(none)</option>
                {label.values.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={`governance-${label.id}`}
                value={values[label.name] ?? ''}
                onInput={(e) => setValues({ ...values, [label.name]: e.currentTarget.value })}
              />
            )}
          </div>
        ))}
      </fieldset>
      {writable && (
        <div class="actions">
          <button type="submit" disabled={labels === undefined}>
            Apply labels
          </button>
        </div>
      )}
    </form>
  );
}
