// The classic portal's admin API under /api/portal/... (catalogue, documentation, configuration, developers, key
// requests, pages, menus and CSS), all behind the `portal` permission and scoped to the caller's organisation. /api/portal/policies is
// not here: it is the policies API (routes/policies.ts, permission `policies`).
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../../deps.ts';
import { registerCatalogueRoutes } from './catalogue.ts';
import { registerConfigurationRoutes } from './configuration.ts';
import { registerDeveloperRoutes } from './developers.ts';
import { registerPageRoutes } from './pages.ts';
import { registerKeyRequestRoutes } from './requests.ts';
import { registerSiteStyleRoutes } from './site-style.ts';

export function registerPortalRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  registerCatalogueRoutes(app, deps);
  registerConfigurationRoutes(app, deps);
  registerDeveloperRoutes(app, deps);
  registerKeyRequestRoutes(app, deps);
  registerPageRoutes(app, deps);
  registerSiteStyleRoutes(app, deps);
}
