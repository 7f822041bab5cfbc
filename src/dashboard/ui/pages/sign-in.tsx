// Sign-in for people: with the e-mail address and password a user set (Account page), or with the user's access
// key (the one the admin API showed when the user was created). Either goes to POST /session once and is never
// kept in the page: the server answers with an HttpOnly cookie. A wrong password and an unknown e-mail get the
// same answer; repeated failures are locked out like access keys (429, its message shown). An e-mail address several
// organisations hold signs in to the oldest holder unless the person names another organisation (its id, under
// "Signing in to another organisation?": POST /session's org_id; the dashboard checks exactly one password).
import { useState } from 'preact/hooks';
import { ApiError, call } from '../api-client.ts';
import { Field } from '../parts/field.tsx';
import { PasswordInput } from '../parts/password-input.tsx';
import { SecretSignIn } from '../parts/secret-sign-in.tsx';
import { href } from '../router.ts';
import type { SessionView } from '../session.ts';

const refusal = (e: unknown, unauthorised: string): string =>
  e instanceof ApiError && e.status === 401 ? unauthorised : e instanceof Error ? e.message : String(e);

export function SignInPage({ note, onSignedIn }: { note?: string | undefined; onSignedIn: (session: SessionView) => void }) {
  const signIn = async (key: string): Promise<string | undefined> => {
    try {
      onSignedIn((await call<SessionView>('POST', '/session', { access_key: key })).data);
      return undefined;
    } catch (e) {
      return refusal(e, 'That access key is not valid (or its user is inactive).');
    }
  };
  return (
    <SecretSignIn
      title="Sign in to gw dashboard"
      note={note}
      field={{ id: 'access-key', label: 'Access key', hint: "Your user's access key, shown when your user was created.", autoComplete: 'current-password' }}
      button="Sign in"
      onSubmit={signIn}
      after={<PasswordSignIn onSignedIn={onSignedIn} />}
    >
      <p class="note">
        <a href={href('admin')}>Administrator sign-in</a>
      </p>
    </SecretSignIn>
  );
}

/** E-mail and password: its own form, after the access key's. */
function PasswordSignIn({ onSignedIn }: { onSignedIn: (session: SessionView) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [orgId, setOrgId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const given = password;
    setPassword('');
    setBusy(true);
    setError(undefined);
    try {
      const org = orgId.trim();
      onSignedIn((await call<SessionView>('POST', '/session', { email_address: email.trim(), password: given, ...(org ? { org_id: org } : {}) })).data);
    } catch (e) {
      setError(refusal(e, 'That e-mail address and password do not match an active user.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="password-sign-in" onSubmit={(e) => void submit(e)} aria-labelledby="password-sign-in-title">
      <h2 id="password-sign-in-title">Or with your e-mail address and password</h2>
      <Field id="sign-in-email" label="E-mail address">
        {(d) => (
          <input id="sign-in-email" type="email" autoComplete="username" value={email} aria-describedby={d} onInput={(e) => setEmail(e.currentTarget.value)} />
        )}
      </Field>
      <PasswordInput id="sign-in-password" label="Password" autoComplete="current-password" error={error} value={password} onInput={setPassword} />
      <details class="sign-in-org">
        <summary>Signing in to another organisation?</summary>
        <Field
          id="sign-in-org"
          label="Organisation ID"
          hint="Only when your e-mail address is in several organisations: the ID of the one to sign in to. Empty: the first organisation that added you."
        >
          {(d) => <input id="sign-in-org" type="text" autoComplete="off" value={orgId} aria-describedby={d} onInput={(e) => setOrgId(e.currentTarget.value)} />}
        </Field>
      </details>
      <button type="submit" disabled={busy}>
        Log in with password
      </button>
    </form>
  );
}
