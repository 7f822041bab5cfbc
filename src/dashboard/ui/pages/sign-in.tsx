// Sign-in with a dashboard user's access key (the one the admin API showed when the user was created). The key
// goes to POST /session once and is never kept in the page: the server answers with an HttpOnly cookie.
import { useState } from 'preact/hooks';
import { ApiError, call } from '../api-client.ts';
import type { SessionView } from '../session.ts';
import { Field } from '../parts/field.tsx';
import { href } from '../router.ts';

export function SignInPage({ note, onSignedIn }: { note?: string | undefined; onSignedIn: (session: SessionView) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await call<SessionView>('POST', '/session', { access_key: key.trim() });
      setKey('');
      onSignedIn(data);
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? 'That access key is not valid (or its user is inactive).' : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to gw dashboard</h1>
        <p class="note" role="status">
          {note ?? ' '}
        </p>
        <Field id="access-key" label="Access key" hint="Your user's access key, shown when your user was created." error={error}>
          {(describedBy, invalid) => (
            <input
              id="access-key"
              type="password"
              autoComplete="current-password"
              required
              value={key}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p class="note">
          <a href={href('admin')}>Administrator sign-in</a>
        </p>
      </form>
    </main>
  );
}
