// The app shell: asks /session and /session/admin who is signed in (the cookies are HttpOnly, so only the server
// knows), shows the sign-in page until someone is, then the navigation and the page the hash names: a user's
// sections, or under #/admin the administration (admin-app.tsx) for an administrator session only; a signed-in
// user there gets a denial page. A 401 from any call (a session expired or was closed) asks again and brings the
// sign-in page back with a note. Sign-out closes the session on the server before forgetting it here.
import { useEffect, useState } from 'preact/hooks';
import { call, setCsrfToken, signingOut, SESSION_ENDED } from './api-client.ts';
import { AccountPage } from './pages/account.tsx';
import { AnalyticsPage } from './pages/analytics.tsx';
import { ApiEditPage } from './pages/api-edit.tsx';
import { ApiImportPage } from './pages/api-import.tsx';
import { ApisPage } from './pages/apis.tsx';
import { CertificatePage } from './pages/certificate.tsx';
import { CertificatesPage } from './pages/certificates.tsx';
import { KeyPage } from './pages/key.tsx';
import { KeysPage } from './pages/keys.tsx';
import { PoliciesPage } from './pages/policies.tsx';
import { PolicyEditPage } from './pages/policy-edit.tsx';
import { PortalSection } from './pages/portal-section.tsx';
import { AdminApp, AdminOnly } from './admin-app.tsx';
import { AdminSignInPage } from './pages/admin-sign-in.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { UsersPage } from './pages/users.tsx';
import { UserGroupsPage } from './pages/user-groups.tsx';
import { AuditPage } from './pages/audit.tsx';
import { href, useRoute } from './router.ts';
import type { AdminView, SessionView } from './session.ts';
import { SkipLink } from './parts/skip-link.tsx';

/** Who is signed in in this browser: a user (GET /session), an administrator (GET /session/admin), both or none. */
type SessionState = { status: 'checking' } | { status: 'ready'; user?: SessionView | undefined; admin?: AdminView | undefined; note?: string | undefined };

const SECTIONS = [
  { route: 'apis', label: 'APIs' },
  { route: 'policies', label: 'Policies' },
  { route: 'keys', label: 'Keys' },
  { route: 'certificates', label: 'Certificates' },
  { route: 'analytics', label: 'Analytics' },
  { route: 'portal', label: 'Portal' },
  { route: 'users', label: 'Users' },
  { route: 'user-groups', label: 'User groups' },
  { route: 'audit', label: 'Audit log' },
  { route: 'account', label: 'Account' },
];

async function sessions(): Promise<{ user?: SessionView | undefined; admin?: AdminView | undefined }> {
  const [user, admin] = await Promise.all([
    call<SessionView>('GET', '/session').then(
      ({ data }) => data,
      () => undefined,
    ),
    call<AdminView>('GET', '/session/admin').then(
      ({ data }) => data,
      () => undefined,
    ),
  ]);
  setCsrfToken(user?.csrf_token ?? '');
  setCsrfToken(admin?.csrf_token ?? '', 'admin');
  return { user, admin };
}

export function App() {
  const [state, setState] = useState<SessionState>({ status: 'checking' });
  const route = useRoute();

  useEffect(() => {
    void sessions().then((found) => setState({ status: 'ready', ...found }));
    // A session ended (expired, signed out elsewhere): ask again which are still open.
    const ended = (): void => void sessions().then((found) => setState({ status: 'ready', ...found, note: 'Your session has ended. Sign in again.' }));
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);

  if (state.status === 'checking') return <main class="page" aria-busy="true" />;
  const { user, admin, note } = state;

  const userSignedIn = (session: SessionView): void => {
    setCsrfToken(session.csrf_token);
    setState({ status: 'ready', user: session, admin });
  };
  const adminSignedIn = (view: AdminView): void => {
    setCsrfToken(view.csrf_token, 'admin');
    setState({ status: 'ready', user, admin: view });
  };
  const userSignOut = async (): Promise<void> => {
    signingOut('user');
    await call('DELETE', '/session').catch(() => undefined);
    setCsrfToken('');
    setState({ status: 'ready', admin, note: 'You are signed out.' });
  };
  const adminSignOut = async (): Promise<void> => {
    signingOut('admin');
    await call('DELETE', '/session/admin').catch(() => undefined);
    setCsrfToken('', 'admin');
    setState({ status: 'ready', user, note: 'You are signed out of the administration.' });
  };

  // The administration (#/admin/...) only for an administrator session; a signed-in user is told it is not theirs.
  if (route[0] === 'admin' || (admin && !user)) {
    if (admin) return <AdminApp route={route} onSignOut={() => void adminSignOut()} />;
    if (!user) return <AdminSignInPage note={note} onSignedIn={adminSignedIn} />;
  }
  if (!user) return <SignInPage note={note} onSignedIn={userSignedIn} />;
  return <UserShell route={route} session={user} onSignOut={() => void userSignOut()} />;
}

function UserShell({ route, session, onSignOut }: { route: string[]; session: SessionView; onSignOut: () => void }) {
  const section = route[0] ?? 'apis';
  return (
    <>
      <SkipLink />
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
        <button type="button" class="secondary" onClick={onSignOut}>
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
      if (id === 'new') return <PolicyEditPage key="new" session={session} />;
      if (id) return <PolicyEditPage key={id} session={session} id={id} />;
      return <PoliciesPage session={session} />;
    case 'keys':
      if (id) return <KeyPage key={id} session={session} id={id} />;
      return <KeysPage session={session} />;
    case 'certificates':
      if (id) return <CertificatePage key={id} session={session} id={id} />;
      return <CertificatesPage session={session} />;
    case 'analytics':
      return <AnalyticsPage />;
    case 'portal':
      return <PortalSection key={id} part={id} session={session} />;
    case 'users':
      return <UsersPage session={session} />;
    case 'user-groups':
      return <UserGroupsPage session={session} />;
    case 'audit':
      return <AuditPage session={session} />;
    case 'account':
      return <AccountPage session={session} />;
    case 'admin':
      return <AdminOnly />;
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
