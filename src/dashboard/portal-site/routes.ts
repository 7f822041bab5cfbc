// The developer portal's addresses, each served for an organisation's portal at /portal/<page> on the
// organisation's domain and at /portal/<org id>/<page> otherwise (site.ts decides which, context.ts resolves it):
//   GET  ''                                        the live homepage (pages/content.ts), else 303 to apis/
//   GET  {slug}/                                   a live content page (Tyk's classic portal pages)
//   GET  custom.css                                the organisation's custom CSS (custom-css.ts)
//   GET  apis/                                     the catalogue (pages/catalogue.ts)
//   GET  apis/{docId}/documentation/               the API page: the entry's OpenAPI document rendered
//   GET  apis/{docId}/documentation.json           the document itself
//   GET  register/, POST register/                 sign-up (pages/account.ts)
//   GET  login/,    POST login/                    sign-in
//   POST logout/                                   sign-out
//   GET  register/verify/?token=                   the e-mail verification link of a sign-up (pages/password-reset.ts)
//   GET  password/forgot/, POST                    asks for a password-reset link by e-mail
//   GET  password/reset/?token=, POST              the reset link's form: a new password
//   GET  member/                                   the developer's keys, usage and pending requests (pages/member.ts)
//   POST member/keys/                              shows, once, the keys approved by an admin since
//   GET  member/policies/{policyId}/request/, POST the key request of a catalogue entry
//   GET  assets/{file}                             the built stylesheet and the API page's renderer (assets.ts)
// Outside /api, /admin and /system: no dashboard credential applies; a developer's own session does (context.ts).
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../deps.ts';
import { route, type Handler, type Method } from '../http.ts';
import { loadPortalAssets } from './assets.ts';
import { portalHandler, type PortalHandler } from './context.ts';
import { login, loginPage, logout, register, registerPage } from './pages/account.ts';
import { apiPage, cataloguePage, documentFile } from './pages/catalogue.ts';
import { contentPage, homePage } from './pages/content.ts';
import { customCssHandler } from './custom-css.ts';
import { orgByCname } from '../store/orgs.ts';
import { forgotPage, forgotPost, resetPage, resetPost, verifyEmail } from './pages/password-reset.ts';
import { keyRequestPage, memberPage, requestKeyPost, revealKeys } from './pages/member.ts';

// The root is registered on its own for /portal/:org/ (rootOrDomainPage), and content pages after these.
const PAGES: Record<string, Partial<Record<Method, PortalHandler>>> = {
  'apis/': { GET: cataloguePage },
  'apis/:docId/documentation/': { GET: apiPage },
  'apis/:docId/documentation.json': { GET: documentFile },
  'register/': { GET: registerPage, POST: register },
  'login/': { GET: loginPage, POST: login },
  'logout/': { POST: logout },
  'register/verify/': { GET: verifyEmail },
  'password/forgot/': { GET: forgotPage, POST: forgotPost },
  'password/reset/': { GET: resetPage, POST: resetPost },
  'member/': { GET: memberPage },
  'member/keys/': { POST: revealKeys },
  'member/policies/:policyId/request/': { GET: keyRequestPage, POST: requestKeyPost },
};

/**
 * A content page on an organisation's domain is /portal/<slug>/, the same shape as another organisation's root
 * /portal/<org id>/: one route answers both, by whether the Host is an organisation's domain (site.ts).
 */
function rootOrDomainPage(deps: DashboardDeps, root: Handler, onDomain: Handler): Handler {
  return async (request, reply) => {
    if (!(await orgByCname(deps.db, request.hostname))) return root(request, reply);
    request.params = { slug: (request.params as Record<string, string | undefined>).org };
    return onDomain(request, reply);
  };
}

export function registerPortalSiteRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const assets = loadPortalAssets();
  for (const prefix of ['/portal/', '/portal/:org/']) {
    for (const [path, handlers] of Object.entries(PAGES)) {
      const wrapped = Object.fromEntries(Object.entries(handlers).map(([method, handler]) => [method, portalHandler(deps, assets, handler)]));
      route(app, `${prefix}${path}`, wrapped);
    }
    route(app, `${prefix}assets/:file`, { GET: async (request, reply) => assets.send(request, reply, (request.params as { file: string }).file) });
    route(app, `${prefix}custom.css`, { GET: customCssHandler(deps) });
  }
  route(app, '/portal/', { GET: portalHandler(deps, assets, homePage) });
  route(app, '/portal/:org/:slug/', { GET: portalHandler(deps, assets, contentPage) });
  const contentOnDomain = portalHandler(deps, assets, contentPage);
  route(app, '/portal/:org/', { GET: rootOrDomainPage(deps, portalHandler(deps, assets, homePage), contentOnDomain) });
}
