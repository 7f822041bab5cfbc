// The administration, for an administrator session only (#/admin/...): its own header and navigation, the
// organisations list (#/admin/organisations) and one organisation with its users (#/admin/organisations/<id>).
// AdminOnly is what a signed-in user sees under #/admin instead: a denial page, never the administration (the
// dashboard refuses their session on /admin anyway; this only says so).
import { SkipLink } from './parts/skip-link.tsx';
import { AdminOrganisationPage } from './pages/admin-organisation.tsx';
import { AdminOrganisationsPage } from './pages/admin-organisations.tsx';
import { href } from './router.ts';

export function AdminApp({ route, onSignOut }: { route: string[]; onSignOut: () => void }) {
  const [, section = 'organisations', id] = route[0] === 'admin' ? route : [];
  return (
    <>
      <SkipLink />
      <header class="top">
        <span class="brand">gw dashboard · administration</span>
        <nav aria-label="Administration">
          <ul>
            <li>
              <a href={href('admin', 'organisations')} aria-current={section === 'organisations' && !id ? 'page' : undefined}>
                Organisations
              </a>
            </li>
          </ul>
        </nav>
        <span class="who">Administrator</span>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" class="page" tabIndex={-1}>
        {section === 'organisations' && id ? (
          <AdminOrganisationPage key={id} id={id} />
        ) : section === 'organisations' ? (
          <AdminOrganisationsPage />
        ) : (
          <NoSuchPage route={route} />
        )}
      </main>
    </>
  );
}

function NoSuchPage({ route }: { route: string[] }) {
  return (
    <section role="alert">
      <h1>Page not found</h1>
      <p>
        There is no page <code>{route.join('/')}</code>. <a href={href('admin', 'organisations')}>Go to the organisations</a>.
      </p>
    </section>
  );
}

export function AdminOnly() {
  return (
    <section class="denied" role="alert" aria-labelledby="denied-title">
      <h2 id="denied-title">Access denied</h2>
      <p>The organisations pages are for the dashboard's administrators, who sign in with the admin secret; a user's session never opens them.</p>
      <p>
        To manage your organisation's users, use <a href={href('users')}>Users</a> (with the users permission).
      </p>
    </section>
  );
}
