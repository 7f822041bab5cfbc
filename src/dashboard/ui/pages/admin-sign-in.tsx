// The administrator's sign-in (#/admin): the dashboard's admin secret goes to POST /session/admin once and is
// dropped from the page at once, whatever the answer; the server answers with an HttpOnly administrator cookie
// (scripts never see it). The secret is never put in storage, a cookie of the page's own, the URL or a header.
import { ApiError, call } from '../api-client.ts';
import { SecretSignIn } from '../parts/secret-sign-in.tsx';
import { href } from '../router.ts';
import type { AdminView } from '../session.ts';

export function AdminSignInPage({ note, onSignedIn }: { note?: string | undefined; onSignedIn: (view: AdminView) => void }) {
  const signIn = async (secret: string): Promise<string | undefined> => {
    try {
      onSignedIn((await call<AdminView>('POST', '/session/admin', { admin_secret: secret })).data);
      return undefined;
    } catch (e) {
      return e instanceof ApiError && e.status === 401 ? 'That is not the admin secret.' : e instanceof Error ? e.message : String(e);
    }
  };
  return (
    <SecretSignIn
      title="Administrator sign-in"
      note={note}
      field={{
        id: 'admin-secret',
        label: 'Admin secret',
        hint: "The dashboard's admin_secret. Opens the organisations for a short session.",
        autoComplete: 'off',
      }}
      button="Sign in as administrator"
      onSubmit={signIn}
    >
      <p class="note">
        <a href={href('apis')}>Sign in as a user instead</a>
      </p>
    </SecretSignIn>
  );
}
