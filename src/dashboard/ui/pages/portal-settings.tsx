// The portal's settings (GET/PUT /api/portal/configuration, Tyk's PortalConfig) that the developer portal applies:
// sign-up and sign-in, the key approval mode (manual: an admin approves each request; automatic: a key is issued at
// once), the redirect of key requests, the extra fields asked at sign-up and with a key request, and the
// notification e-mail; the portal's name and its custom CSS (GET/PUT /api/portal/css, page_css: the portal's
// stylesheet), and whether new developers wait for an administrator's approval. Other stored fields (e-mail copy,
// DCR options) are written back as they were. Before the organisation saves any, the portal uses every default
// (GET answers 404).
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, errorAt } from '../api-client.ts';
import { Field } from '../parts/field.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';

interface Settings {
  disable_signup: boolean;
  disable_login: boolean;
  disable_auto_login: boolean;
  catalogue_login_only: boolean;
  require_key_approval: boolean;
  require_developer_approval: boolean;
  portal_name: string;
  redirect_on_key_request: boolean;
  redirect_to: string;
  signup_fields: string[];
  key_request_fields: string[];
  email: string;
  [field: string]: unknown;
}

const DEFAULTS: Settings = {
  disable_signup: false,
  disable_login: false,
  disable_auto_login: false,
  catalogue_login_only: false,
  require_key_approval: false,
  require_developer_approval: false,
  portal_name: '',
  redirect_on_key_request: false,
  redirect_to: '',
  signup_fields: [],
  key_request_fields: [],
  email: '',
};

const SWITCHES: { field: keyof Settings; label: string }[] = [
  { field: 'disable_signup', label: 'Close sign-up (no new developers register)' },
  { field: 'disable_login', label: 'Close sign-in' },
  { field: 'disable_auto_login', label: 'Do not sign developers in right after they register' },
  { field: 'catalogue_login_only', label: 'Show the catalogue to signed-in developers only' },
  { field: 'require_developer_approval', label: 'New developers wait for an administrator to approve them (on the Developers page)' },
];

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export function PortalSettingsPage({ writable, managed }: { writable: boolean; managed: boolean }) {
  const [stored, setStored] = useState<Settings | undefined>();
  const [edited, setEdited] = useState<Settings>(DEFAULTS);
  const [signupFields, setSignupFields] = useState('');
  const [requestFields, setRequestFields] = useState('');
  const [css, setCss] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const [formError, setFormError] = useState<ApiError | Error | undefined>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    call<Settings>('GET', '/api/portal/configuration').then(
      ({ data }) => setStored({ ...DEFAULTS, ...data }),
      (e: unknown) => (e instanceof ApiError && e.status === 404 ? setStored(DEFAULTS) : setError(e)),
    );
    call<{ page_css: string }>('GET', '/api/portal/css').then(
      ({ data }) => setCss(data.page_css),
      (e: unknown) => setError(e),
    );
  }, []);
  useEffect(() => {
    if (stored === undefined) return;
    setEdited(stored);
    setSignupFields(stored.signup_fields.join('\n'));
    setRequestFields(stored.key_request_fields.join('\n'));
  }, [stored]);

  if (error) return <Problem error={error} what="read the portal settings" />;
  if (stored === undefined || css === undefined) return <p aria-busy="true">Loading the portal settings…</p>;
  const set = (changes: Partial<Settings>): void => {
    setSaved(false);
    setEdited({ ...edited, ...changes });
  };
  const fieldError = (field: string): string | undefined => errorAt(formError, field);

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    setSaved(false);
    const { id: _id, org_id: _org, HashKeys: _hash, ...settings } = edited;
    try {
      await call('PUT', '/api/portal/configuration', { ...settings, signup_fields: lines(signupFields), key_request_fields: lines(requestFields) });
      await call('PUT', '/api/portal/css', { page_css: css });
      setSaved(true);
    } catch (e) {
      setFormError(e instanceof Error ? e : new Error(String(e)));
    }
  };

  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Portal settings</h1>
      {managed && (
        <p class="managed-note" role="note">
          This organisation's portal settings are managed by the operator (PortalConfig): shown read-only.
        </p>
      )}
      <form class="card" onSubmit={(e) => void save(e)} noValidate aria-labelledby="settings-title">
        <fieldset disabled={!writable}>
          <legend>Sign-up and sign-in</legend>
          {SWITCHES.map(({ field, label }) => (
            <label key={field} class="checks">
              <input type="checkbox" checked={edited[field] === true} onChange={(e) => set({ [field]: e.currentTarget.checked })} /> {label}
            </label>
          ))}
          <LinesField
            id="settings-signup-fields"
            label="Extra sign-up fields"
            value={signupFields}
            error={fieldError('signup_fields')}
            onInput={(text) => {
              setSaved(false);
              setSignupFields(text);
            }}
          />
        </fieldset>
        <fieldset disabled={!writable}>
          <legend>Key requests</legend>
          <label class="radio">
            <input type="radio" name="key-approval" checked={edited.require_key_approval} onChange={() => set({ require_key_approval: true })} /> Manual
            approval: an administrator approves or declines each request
          </label>
          <label class="radio">
            <input type="radio" name="key-approval" checked={!edited.require_key_approval} onChange={() => set({ require_key_approval: false })} /> Automatic
            approval: the key is issued at once
          </label>
          <label class="checks">
            <input type="checkbox" checked={edited.redirect_on_key_request} onChange={(e) => set({ redirect_on_key_request: e.currentTarget.checked })} /> Send
            key requests to another site instead
          </label>
          <Field id="settings-redirect-to" label="Key request site (URL)" error={fieldError('redirect_to')}>
            {(d, invalid) => (
              <input
                id="settings-redirect-to"
                value={edited.redirect_to}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => set({ redirect_to: e.currentTarget.value })}
              />
            )}
          </Field>
          <LinesField
            id="settings-request-fields"
            label="Extra key request fields"
            value={requestFields}
            error={fieldError('key_request_fields')}
            onInput={(text) => {
              setSaved(false);
              setRequestFields(text);
            }}
          />
          <Field id="settings-email" label="Notification e-mail" hint="Where the portal's notifications to administrators go" error={fieldError('email')}>
            {(d, invalid) => (
              <input
                id="settings-email"
                value={edited.email}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => set({ email: e.currentTarget.value })}
              />
            )}
          </Field>
        </fieldset>
        <fieldset disabled={!writable}>
          <legend>Look</legend>
          <Field
            id="settings-portal-name"
            label="Portal name"
            hint="In the portal's header and page titles; empty: the organisation's name"
            error={fieldError('portal_name')}
          >
            {(d, invalid) => (
              <input
                id="settings-portal-name"
                value={edited.portal_name}
                maxLength={100}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => set({ portal_name: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field id="settings-css" label="Custom CSS" hint="Applied after the portal's own stylesheet; @import is not allowed" error={fieldError('page_css')}>
            {(d, invalid) => (
              <textarea
                id="settings-css"

                rows={8}
                spellcheck={false}
                value={css}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => {
                  setSaved(false);
                  setCss(e.currentTarget.value);
                }}
              />
            )}
          </Field>
        </fieldset>
        <FormAlert error={formError} />
        {writable && (
          <div class="actions">
            <button type="submit">Save settings</button>
            <span role="status">{saved ? 'Saved: the portal applies these settings from its next page.' : ''}</span>
          </div>
        )}
      </form>
    </section>
  );
}

/** A list of field names typed one per line. */
function LinesField(props: { id: string; label: string; value: string; error: string | undefined; onInput: (text: string) => void }) {
  return (
    <Field id={props.id} label={props.label} hint="One field name per line" error={props.error}>
      {(d, invalid) => (
        <textarea
          id={props.id}
          rows={3}
          value={props.value}
          aria-describedby={d}
          aria-invalid={invalid}
          onInput={(e) => props.onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
