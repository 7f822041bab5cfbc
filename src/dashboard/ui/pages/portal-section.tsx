// The classic portal's administration (#/portal/...): a sub-navigation over its five pages (catalogue, developers,
// key requests, pages and menu, settings) and a link to the organisation's developer portal (at its own domain when it has one). Who may change what follows the
// server's rules: the `portal` permission's write for everything, and in an operator_managed organisation only
// the operator writes the catalogue and the settings (its PortalAPICatalogue and PortalConfig kinds own them), so
// people see those read-only there. The UI only hides buttons: the API refuses the writes itself.
import { href } from '../router.ts';
import { mayWrite, operatorManaged, type SessionView } from '../session.ts';
import { PortalCataloguePage } from './portal-catalogue.tsx';
import { PortalDevelopersPage } from './portal-developers.tsx';
import { PortalPagesPage } from './portal-pages.tsx';
import { PortalRequestsPage } from './portal-requests.tsx';
import { PortalSettingsPage } from './portal-settings.tsx';

const PARTS = [
  { route: 'catalogue', label: 'Catalogue' },
  { route: 'developers', label: 'Developers' },
  { route: 'requests', label: 'Key requests' },
  { route: 'pages', label: 'Pages and menu' },
  { route: 'settings', label: 'Settings' },
] as const;
type Part = (typeof PARTS)[number]['route'];

/** Whether this user may change this part of the portal (the server refuses the same writes). */
export function portalWritable(session: SessionView, part: Part): boolean {
  if (!mayWrite(session, 'portal')) return false;
  return !((part === 'catalogue' || part === 'settings') && operatorManaged(session));
}

export function PortalSection({ part = 'catalogue', session }: { part?: string | undefined; session: SessionView }) {
  const known = PARTS.find((p) => p.route === part);
  return (
    <>
      <nav class="subnav" aria-label="Portal">
        <ul>
          {PARTS.map((p) => (
            <li key={p.route}>
              <a href={href('portal', p.route)} aria-current={known?.route === p.route ? 'page' : undefined}>
                {p.label}
              </a>
            </li>
          ))}
          <li>
            <a href={session.org.portal_url} target="_blank" rel="noopener">
              Open the developer portal
            </a>
          </li>
        </ul>
      </nav>
      {known === undefined ? (
        <section role="alert">
          <h1>Page not found</h1>
          <p>
            There is no portal page <code>{part}</code>. <a href={href('portal', 'catalogue')}>Go to the catalogue</a>.
          </p>
        </section>
      ) : (
        <PortalPart part={known.route} session={session} />
      )}
    </>
  );
}

function PortalPart({ part, session }: { part: Part; session: SessionView }) {
  const writable = portalWritable(session, part);
  switch (part) {
    case 'catalogue':
      return <PortalCataloguePage writable={writable} managed={operatorManaged(session)} />;
    case 'developers':
      return <PortalDevelopersPage writable={writable} />;
    case 'requests':
      return <PortalRequestsPage writable={writable} />;
    case 'pages':
      return <PortalPagesPage writable={writable} portalBase={session.org.portal_url} />;
    case 'settings':
      return <PortalSettingsPage writable={writable} managed={operatorManaged(session)} />;
  }
}
