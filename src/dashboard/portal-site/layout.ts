// The frame of every portal page: the document head (the portal's stylesheet, then the organisation's custom CSS
// when it has any; the API page adds the renderer's files), a skip link, the header with the portal's name (its
// portal_name, else "<organisation> developer portal") and the navigation (the items of the menu named "Main",
// then Catalogue; Register and Sign in
// unless the configuration disables them; My keys and Sign out for a signed-in developer, the sign-out a form
// post with the session's CSRF token), and the main region the page fills. Must never interpolate unescaped text
// (html.ts escapes everything not already Html).
import { html, type Html } from './html.ts';
import { CSRF_FIELD } from './forms.ts';
import type { PortalSite } from './site.ts';
import { portalHref } from './page-content.ts';

export type NavItem = 'catalogue' | 'register' | 'login' | 'member';

export interface PageFrame {
  site: PortalSite;
  title: string;
  /** The navigation entry this page is (aria-current). */
  current?: NavItem;
  /** The signed-in developer's e-mail and session CSRF token; undefined when anonymous. */
  developer?: { email: string; csrfToken: string } | undefined;
  /** What the configuration allows anonymous visitors. */
  signupOpen: boolean;
  loginOpen: boolean;
  /** Extra stylesheet and module script paths (the API page's renderer). */
  styles?: string[];
  scripts?: string[];
  siteStyle: string;
  /** The portal's name, in the header and every title. */
  name: string;
  /** The "Main" menu's items (Tyk's {Title, URL}; URL relative to the portal or http(s)). */
  menu: readonly { Title: string; URL: string }[];
  /** The portal path of the page shown, when it is a content page. */
  currentPath?: string;
  /** The custom CSS's version; '' when the organisation has none (no link). */
  customCssVersion: string;
}

function link(site: PortalSite, current: NavItem | undefined, item: NavItem, path: string, text: string): Html {
  return html`<li><a href="${site.base}${path}"${current === item ? html` aria-current="page"` : ''}>${text}</a></li>`;
}

export function page(frame: PageFrame, body: Html): string {
  const { site, current, developer } = frame;
  const menu = frame.menu.map((item) => {
    const href = portalHref(site.base, item.URL);
    const current = frame.currentPath !== undefined && href === `${site.base}${frame.currentPath}`;
    return href ? html`<li><a href="${href}"${current ? html` aria-current="page"` : ''}>${item.Title}</a></li>` : undefined;
  });
  const nav = [
    ...menu,
    link(site, current, 'catalogue', 'apis/', 'API catalogue'),
    developer ? link(site, current, 'member', 'member/', 'My keys') : undefined,
    !developer && frame.signupOpen ? link(site, current, 'register', 'register/', 'Register') : undefined,
    !developer && frame.loginOpen ? link(site, current, 'login', 'login/', 'Sign in') : undefined,
    developer
      ? html`<li><form method="post" action="${site.base}logout/"><input type="hidden" name="${CSRF_FIELD}" value="${developer.csrfToken}"><button type="submit" class="secondary">Sign out</button></form></li>`
      : undefined,
  ];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${frame.title} · ${frame.name}</title>
<link rel="stylesheet" href="${site.base}assets/${frame.siteStyle}">
${frame.customCssVersion ? html`<link rel="stylesheet" href="${site.base}custom.css?v=${frame.customCssVersion}">\n` : ''}${(frame.styles ?? []).map((href) => html`<link rel="stylesheet" href="${site.base}assets/${href}">\n`)}${(frame.scripts ?? []).map((src) => html`<script type="module" src="${site.base}assets/${src}"></script>\n`)}</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site">
<div class="bar">
<a class="brand" href="${site.base}">${frame.name}</a>
<nav aria-label="Portal"><ul>${nav}</ul></nav>
${developer ? html`<span class="muted-on-dark">Signed in as ${developer.email}</span>` : ''}
</div>
</header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>
`.text;
}
