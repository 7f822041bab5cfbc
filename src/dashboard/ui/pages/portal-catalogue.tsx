// The portal catalogue (GET/PUT /api/portal/catalogue): its entries in the order the developer portal lists them,
// each movable up or down with buttons (keyboard-usable; focus follows the moved entry), unpublished after a
// confirmation (the entry leaves the catalogue; its policy and keys stay), and a form publishing a policy as a new
// entry with a name and short and long descriptions. The organisation's first entry creates its catalogue (POST).
// Every change writes the whole list with PUT, as Tyk's dashboard does.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, errorAt } from '../api-client.ts';
import { LatestAnswer } from '../latest-answer.ts';
import { ConfirmDialog } from '../parts/confirm-dialog.tsx';
import { Field } from '../parts/field.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';

/** An entry as stored: the fields this page shows, the others kept as they are on every write. */
interface Entry {
  name: string;
  short_description?: string;
  long_description?: string;
  show?: boolean;
  policy_id: string;
  [field: string]: unknown;
}

interface Catalogue {
  id: string;
  email: string;
  apis: Entry[];
}

interface PolicyChoice {
  id: string;
  name: string;
}

/** The catalogue, or null when the organisation has none yet (asked without a 404 in the browser's console). */
async function loadCatalogue(): Promise<Catalogue | null> {
  return (await call<Catalogue | null>('GET', '/api/portal/catalogue?allow_missing=true')).data;
}

/** Writes the entries: creates the catalogue first when there is none. */
async function saveEntries(catalogue: Catalogue | null, apis: Entry[]): Promise<void> {
  if (catalogue === null) await call('POST', '/api/portal/catalogue', { apis });
  else await call('PUT', '/api/portal/catalogue', { email: catalogue.email, apis });
}

export function PortalCataloguePage({ writable, managed }: { writable: boolean; managed: boolean }) {
  const [catalogue, setCatalogue] = useState<Catalogue | null | undefined>();
  const [policies, setPolicies] = useState<PolicyChoice[]>([]);
  const [error, setError] = useState<unknown>();
  const [actionError, setActionError] = useState<unknown>();
  const [unpublishing, setUnpublishing] = useState<number | undefined>();
  /** The id of the button to focus once the catalogue written is read back (a moved entry's). */
  const focusAfter = useRef<string | undefined>(undefined);
  const [reloads, setReloads] = useState(0);

  const latest = useRef(new LatestAnswer()).current;

  useEffect(() => {
    latest.ask(loadCatalogue(), setCatalogue, (e: unknown) => setError(e));
  }, [reloads]);
  useEffect(() => {
    call<{ Data: PolicyChoice[] }>('GET', '/api/portal/policies?p=-2').then(
      ({ data }) => setPolicies(data.Data),
      () => setPolicies([]),
    );
  }, []);
  // In the same task as the render that shows the moved entry: nothing sees the page between the two.
  useLayoutEffect(() => {
    if (focusAfter.current === undefined || catalogue === undefined) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = undefined;
  }, [catalogue]);

  if (error) return <Problem error={error} what="read the portal catalogue" />;
  const entries = catalogue?.apis ?? [];
  const policyName = (id: string): string => policies.find((p) => p.id === id)?.name ?? id;

  const write = async (apis: Entry[], focus?: string): Promise<boolean> => {
    setActionError(undefined);
    try {
      await saveEntries(catalogue ?? null, apis);
      focusAfter.current = focus;
      setReloads((n) => n + 1);
      return true;
    } catch (e) {
      setActionError(e);
      return false;
    }
  };
  const move = (from: number, to: number): void => {
    const apis = [...entries];
    const [moved] = apis.splice(from, 1);
    apis.splice(to, 0, moved!);
    // Focus stays on the moved entry's button in the same direction, or the other one at either end.
    const direction = to < from ? 'up' : 'down';
    const edge = (direction === 'up' && to === 0) || (direction === 'down' && to === apis.length - 1);
    void write(apis, `catalogue-move-${edge ? (direction === 'up' ? 'down' : 'up') : direction}-${to}`);
  };

  return (
    <section aria-labelledby="catalogue-title">
      <h1 id="catalogue-title">Portal catalogue</h1>
      {managed && (
        <p class="managed-note" role="note">
          This organisation's catalogue is managed by the operator (PortalAPICatalogue): shown read-only.
        </p>
      )}
      <p class="count" role="status">
        {catalogue === undefined
          ? 'Loading the catalogue…'
          : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}, in the order the portal lists them`}
      </p>
      {catalogue !== undefined && entries.length === 0 ? (
        <p>Nothing is published yet. Publish a policy below: developers then find it in the portal and request keys for it.</p>
      ) : (
        <table class="list" aria-label="Catalogue entries" aria-busy={catalogue === undefined}>
          <colgroup>
            <col style={{ width: '9%' }} />
            <col style={{ width: '16%' }} />
            <col style={{ width: '16%' }} />
            <col style={{ width: '10%' }} />
            <col />
            {writable && <col style={{ width: '34%' }} />}
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Position</th>
              <th scope="col">Name</th>
              <th scope="col">Policy</th>
              <th scope="col">Shown</th>
              <th scope="col">Short description</th>
              {writable && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${index}-${entry.name}`}>
                <td>{index + 1}</td>
                <td>{entry.name}</td>
                <td>{policyName(entry.policy_id)}</td>
                <td>{entry.show ? 'Yes' : 'No (hidden)'}</td>
                <td>{entry.short_description ?? ''}</td>
                {writable && (
                  <td class="whole">
                    <div class="row-actions">
                      <button
                        id={`catalogue-move-up-${index}`}
                        type="button"
                        class="secondary"
                        aria-label={`Move ${entry.name} up`}
                        disabled={index === 0}
                        onClick={() => move(index, index - 1)}
                      >
                        Move up
                      </button>
                      <button
                        id={`catalogue-move-down-${index}`}
                        type="button"
                        class="secondary"
                        aria-label={`Move ${entry.name} down`}
                        disabled={index === entries.length - 1}
                        onClick={() => move(index, index + 1)}
                      >
                        Move down
                      </button>
                      <button type="button" class="secondary" aria-label={`Unpublish ${entry.name}`} onClick={() => setUnpublishing(index)}>
                        Unpublish
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {unpublishing === undefined && actionError instanceof Error && (
        <p class="problem" role="alert">
          Could not save the catalogue: {actionError.message}
        </p>
      )}
      {unpublishing !== undefined && entries[unpublishing] !== undefined && (
        <ConfirmDialog
          title={`Unpublish ${entries[unpublishing].name}?`}
          confirmLabel="Unpublish"
          error={actionError instanceof Error ? actionError.message : undefined}
          onConfirm={() =>
            void write(entries.filter((_, i) => i !== unpublishing)).then((done) => {
              if (done) setUnpublishing(undefined);
            })
          }
          onCancel={() => {
            setUnpublishing(undefined);
            setActionError(undefined);
          }}
        >
          <p>The entry leaves the portal's catalogue: developers can no longer find it or request keys for it. Its policy and the keys already issued stay.</p>
        </ConfirmDialog>
      )}
      {writable && catalogue !== undefined && <PublishForm policies={policies} onPublish={(entry) => write([...entries, entry])} />}
    </section>
  );
}

function PublishForm({ policies, onPublish }: { policies: PolicyChoice[]; onPublish: (entry: Entry) => Promise<boolean> }) {
  const [policy, setPolicy] = useState('');
  const [name, setName] = useState('');
  const [short, setShort] = useState('');
  const [long, setLong] = useState('');
  const [show, setShow] = useState(true);
  const [formError, setFormError] = useState<ApiError | undefined>();

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (policy === '' || name.trim() === '') {
      setFormError(
        new ApiError(400, [policy === '' ? 'policy_id: choose a policy' : '', name.trim() === '' ? 'name: must not be empty' : ''].filter(Boolean).join('; ')),
      );
      return;
    }
    setFormError(undefined);
    const published = await onPublish({ name: name.trim(), policy_id: policy, short_description: short, long_description: long, show, version: 'v2' });
    if (published) {
      setPolicy('');
      setName('');
      setShort('');
      setLong('');
      setShow(true);
    }
  };
  const fieldError = (field: string): string | undefined => errorAt(formError, field);
  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="publish-title">
      <h2 id="publish-title">Publish an API</h2>
      <Field id="publish-policy" label="Policy" hint="Developers get keys applying this policy" error={fieldError('policy_id')}>
        {(d, invalid) => (
          <select id="publish-policy" value={policy} aria-describedby={d} aria-invalid={invalid} onChange={(e) => setPolicy(e.currentTarget.value)}>
            <option value="">Choose a policy</option>
            {policies.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="publish-name" label="Name" hint="As the portal's catalogue shows it" error={fieldError('name')}>
        {(d, invalid) => <input id="publish-name" value={name} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field id="publish-short" label="Short description" error={fieldError('short_description')}>
        {(d, invalid) => (
          <input id="publish-short" value={short} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setShort(e.currentTarget.value)} />
        )}
      </Field>
      <Field
        id="publish-long"
        label="Long description"
        hint="Shown on the catalogue card; blank lines separate paragraphs"
        error={fieldError('long_description')}
      >
        {(d, invalid) => (
          <textarea id="publish-long" rows={4} value={long} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setLong(e.currentTarget.value)} />
        )}
      </Field>
      <label class="checks">
        <input type="checkbox" checked={show} onChange={(e) => setShow(e.currentTarget.checked)} /> Show in the portal's catalogue
      </label>
      <FormAlert error={formError} />
      <div class="actions">
        <button type="submit">Publish</button>
      </div>
    </form>
  );
}
