// The dashboard as a Fastify app: the admin API (/admin), the org API (/api), the node API (/system), a
// health check (/hello, no credential), the web UI's sign-in (/session, /session/admin), the built web UI itself (/, /assets/) and
// the organisations' developer portals (/portal/, portal-site/routes.ts). The shared HTTP conventions (src/http/conventions.ts) apply: bodies read as
// text and parsed by each route with the bounded parser, the edge check on every request (path and query strings,
// and `p` against PageParameter), a body over max_body_bytes 413; an unknown path 404 {"Status":"Error","Message":"Not found"}.
// Errors are logged without headers or bodies: credentials never reach the log. X-Forwarded-* headers are believed
// only from trusted_proxies (request.ip, protocol and host then come from them).
import { traceManagementWrites } from '../tracing/http-writes.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuthentication } from './access.ts';
import { registerK8sOwnership } from './k8s-owner.ts';
import { registerOrganisationRoutes } from './admin/organisations.ts';
import { registerAdminUserGroupRoutes } from './admin/user-groups.ts';
import { registerUserRoutes } from './admin/users.ts';
import type { DashboardDeps } from './deps.ts';
import { frameworkErrorsAs, installConventions } from '../http/conventions.ts';
import { logWrites } from '../http/write-log.ts';
import { route, sendError, sendJson } from './http.ts';
import { PageParameter } from './paging.ts';
import { registerAnalyticsIngestRoutes } from './routes/analytics-ingest.ts';
import { registerAnalyticsRoutes } from './routes/analytics.ts';
import { registerApiRoutes } from './routes/apis.ts';
import { registerCertRoutes } from './routes/certs.ts';
import { registerChangeRoutes } from './routes/changes.ts';
import { registerGovernanceRoutes } from './routes/governance.ts';
import { registerImportRoutes } from './routes/imports.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerNodeRoutes } from './routes/node.ts';
import { registerOasRoutes } from './routes/oas.ts';
import { registerPortalRoutes } from './portal/routes/register.ts';
import { registerPolicyRoutes } from './routes/policies.ts';
import { registerOrgUserRoutes } from './routes/users.ts';
import { registerUserGroupRoutes } from './routes/user-groups.ts';
import { registerAuditRoutes } from './routes/audit.ts';
import { registerAudit } from './audit.ts';
import { registerUserPasswordRoutes } from './user-passwords.ts';
import { registerPortalSiteRoutes } from './portal-site/routes.ts';
import { registerAdminSessionRoutes } from './session/admin-routes.ts';
import { registerSessionRoutes } from './session/routes.ts';
import { registerUiRoutes } from './ui-files.ts';

/** Longest path parameter (the analytics aggregate of many keys names them all in one: 64 hex digits each). */
const MAX_PATH_PARAMETER = 8192;

export function createDashboardApp(deps: DashboardDeps): FastifyInstance {
  const trustProxy = deps.config.trusted_proxies.length > 0 ? deps.config.trusted_proxies : false;
  const app = Fastify({
    logger: false,
    trustProxy,
    bodyLimit: deps.config.max_body_bytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER },
    frameworkErrors: frameworkErrorsAs(sendError),
  });
  if (deps.tracer) traceManagementWrites(app, deps.tracer); // first: a refused write is traced too
  registerAuthentication(app, deps.db, deps.config);
  registerK8sOwnership(app, deps.db);
  installConventions(app, {
    sendError,
    bodyLimit: { bytes: deps.config.max_body_bytes, setting: 'max_body_bytes' },
    log: deps.log,
    service: 'dashboard API',
    edge: { p: PageParameter },
  });
  logWrites(app, deps.log, 'dashboard API');
  registerAudit(app, deps);
  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, 'Not found'));

  route(app, '/hello', {
    GET: async (_request, reply) => {
      const up = await deps.db.query('SELECT 1').then(
        () => true,
        () => false,
      );
      return sendJson(reply, up ? 200 : 503, {
        status: up ? 'pass' : 'fail',
        description: 'gw dashboard',
        details: { database: { status: up ? 'pass' : 'fail', type: deps.db.kind } },
      });
    },
  });
  registerOrganisationRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerAdminUserGroupRoutes(app, deps);
  registerApiRoutes(app, deps);
  registerOasRoutes(app, deps);
  registerPolicyRoutes(app, deps);
  registerKeyRoutes(app, deps);
  registerCertRoutes(app, deps);
  registerImportRoutes(app, deps);
  registerNodeRoutes(app, deps);
  registerChangeRoutes(app, deps);
  registerAnalyticsIngestRoutes(app, deps);
  registerAnalyticsRoutes(app, deps);
  registerOrgUserRoutes(app, deps);
  registerUserGroupRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerUserPasswordRoutes(app, deps);
  registerGovernanceRoutes(app, deps);
  registerPortalRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerPortalSiteRoutes(app, deps);
  registerAdminSessionRoutes(app, deps);
  registerUiRoutes(app);
  return app;
}
