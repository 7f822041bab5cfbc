// The administrator's sign-in (#/admin): the dashboard's admin secret goes to POST /session/admin once and is
// dropped from the page at once, whatever the answer; the server answers with an HttpOnly administrator cookie
// (scripts never see it). The secret is never put in storage, a cookie of the page's own, the URL or a header.
import { useState } from 'preact/hooks';
import { ApiError, call } from '../api-client.ts';
import { Field } from '../parts/field.tsx';
import { href } from '../router.ts';
import type { AdminView } from '../session.ts';

export function AdminSignInPage({ note, onSignedIn }: { note?: string | undefined; onSignedIn: (view: AdminView) => void }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const given = secret;
    setSecret('');
    try {
      const { data } = await call<AdminView>('POST', '/session/admin', { admin_secret: given });
      onSignedIn(data);
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? 'That is not the admin secret.' : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="admin-sign-in-title">
        <h1 id="admin-sign-in-title">Administrator sign-in</h1>
        <p class="note" role="status">
          {note ?? ' '}
        </p>
        <Field id="admin-secret" label="Admin secret" hint="The dashboard's admin_secret. Opens the organisations for a short session." error={error}>
          {(describedBy, invalid) => (
            <input
              id="admin-secret"
              type="password"
              autoComplete="off"
              required
              value={secret}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(e) => setSecret(e.currentTarget.value)}
            />
          )}
        </Field>
        <div class="actions">
          <button type="submit" disabled={busy}>
            Sign in as administrator
          </button>
        </div>
        <p class="note">
          <a href={href('apis')}>Sign in as a user instead</a>
        </p>
      </form>
    </main>
  );
}
