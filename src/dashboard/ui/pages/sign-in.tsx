// Sign-in with a dashboard user's access key (the one the admin API showed when the user was created). The key
// goes to POST /session once and is never kept in the page: the server answers with an HttpOnly cookie.
import { ApiError, call } from '../api-client.ts';
import { SecretSignIn } from '../parts/secret-sign-in.tsx';
import { href } from '../router.ts';
import type { SessionView } from '../session.ts';

export function SignInPage({ note, onSignedIn }: { note?: string | undefined; onSignedIn: (session: SessionView) => void }) {
  const signIn = async (key: string): Promise<string | undefined> => {
    try {
      onSignedIn((await call<SessionView>('POST', '/session', { access_key: key })).data);
      return undefined;
    } catch (e) {
      return e instanceof ApiError && e.status === 401 ? 'That access key is not valid (or its user is inactive).' : e instanceof Error ? e.message : String(e);
    }
  };
  return (
    <SecretSignIn
      title="Sign in to gw dashboard"
      note={note}
      field={{ id: 'access-key', label: 'Access key', hint: "Your user's access key, shown when your user was created.", autoComplete: 'current-password' }}
      button="Sign in"
      onSubmit={signIn}
    >
      <p class="note">
        <a href={href('admin')}>Administrator sign-in</a>
      </p>
    </SecretSignIn>
  );
}
