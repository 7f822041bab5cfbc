// The app shell: asks /session who is signed in (the cookie is HttpOnly, so only the server knows), shows the
// sign-in page until someone is, then the navigation and the page the hash names. A 401 from any call (the
// session expired or was closed) brings the sign-in page back with a note. Sign-out closes the session on the
// server (DELETE /session) before forgetting it here.
import { useEffect, useState } from 'preact/hooks';
import { call, setCsrfToken, SESSION_ENDED } from './api-client.ts';
import { AccountPage } from './pages/account.tsx';
import { AnalyticsPage } from './pages/analytics.tsx';
import { ApiEditPage } from './pages/api-edit.tsx';
import { ApiImportPage } from './pages/api-import.tsx';
import { ApisPage } from './pages/apis.tsx';
import { CertificatesPage } from './pages/certificates.tsx';
import { KeysPage } from './pages/keys.tsx';
import { PoliciesPage } from './pages/policies.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { UsersPage } from './pages/users.tsx';
import { href, useRoute } from './router.ts';
import type { SessionView } from './session.ts';

type SessionState = { status: 'checking' } | { status: 'signed-out'; note?: string } | { status: 'signed-in'; session: SessionView };

const SECTIONS = [
  { route: 'apis', label: 'APIs' },
  { route: 'policies', label: 'Policies' },
  { route: 'keys', label: 'Keys' },
  { route: 'certificates', label: 'Certificates' },
  { route: 'analytics', label: 'Analytics' },
  { route: 'users', label: 'Users' },
  { route: 'account', label: 'Account' },
];

export function App() {
  const [state, setState] = useState<SessionState>({ status: 'checking' });
  const route = useRoute();

  const signedIn = (session: SessionView): void => {
    setCsrfToken(session.csrf_token);
    setState({ status: 'signed-in', session });
  };

  useEffect(() => {
    call<SessionView>('GET', '/session').then(
      ({ data }) => signedIn(data),
      () => setState({ status: 'signed-out' }),
    );
    const ended = (): void => setState({ status: 'signed-out', note: 'Your session has ended. Sign in again.' });
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);

  if (state.status === 'checking') return <main class="page" aria-busy="true" />;
  if (state.status === 'signed-out') return <SignInPage note={state.note} onSignedIn={signedIn} />;

  const { session } = state;
  const section = route[0] ?? 'apis';
  const signOut = async (): Promise<void> => {
    await call('DELETE', '/session').catch(() => undefined);
    setCsrfToken('');
    setState({ status: 'signed-out', note: 'You are signed out.' });
  };

  return (
    <>
      {/* Focuses the content without touching the hash, which holds the route. */}
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <span class="brand">gw dashboard</span>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.route}>
                <a href={href(s.route)} aria-current={section === s.route ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.user.email_address} · {session.org.owner_name}
        </span>
        <button type="button" class="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" class="page" tabIndex={-1}>
        <Page route={route} session={session} />
      </main>
    </>
  );
}

function Page({ route, session }: { route: string[]; session: SessionView }) {
  const [section = 'apis', id, sub] = route;
  switch (section) {
    case 'apis':
      if (id === 'new') return <ApiEditPage session={session} />;
      if (id === 'import') return <ApiImportPage session={session} />;
      if (id === 'oas' && sub) return <ApiEditPage key={`oas-${sub}`} session={session} id={sub} oas />;
      if (id) return <ApiEditPage key={id} session={session} id={id} />;
      return <ApisPage session={session} />;
    case 'policies':
      return <PoliciesPage session={session} />;
    case 'keys':
      return <KeysPage session={session} />;
    case 'certificates':
      return <CertificatesPage session={session} />;
    case 'analytics':
      return <AnalyticsPage />;
    case 'users':
      return <UsersPage session={session} />;
    case 'account':
      return <AccountPage session={session} />;
    default:
      return (
        <section role="alert">
          <h1>Page not found</h1>
          <p>
            There is no page <code>{route.join('/')}</code>. <a href={href('apis')}>Go to the APIs</a>.
          </p>
        </section>
      );
  }
}
