// /api/changes: the change feed of one organisation's APIs, policies and classic portal (src/http/change-feed.ts),
// for the operator's drift watch. One version counter per organisation, bumped after every successful (2xx) write —
// POST, PUT, PATCH or DELETE — under /api/apis (Classic and OAS), /api/portal/policies, /api/portal/catalogue,
// /api/portal/documentation or /api/portal/configuration by a caller of that organisation (a human or the
// operator); a caller only ever learns of its own organisation's changes. Needs the `apis` read permission.
//   GET /api/changes?since=N[&epoch=E][&timeout=S]   200 {version, epoch} (long poll; see change-feed.ts)
// The counters live in the process: with several dashboard replicas a watcher that lands on another one sees a
// different epoch and looks again (the operator's periodic scan stays the fallback).
import type { FastifyInstance } from 'fastify';
import { ChangeFeed, isCommittedWrite } from '../../http/change-feed.ts';
import { callerOf, orgRoute } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { sendJson } from '../http.ts';

/** The route prefixes whose writes move the feed: what the operator syncs (portal developers and key requests: not). */
const WATCHED = ['/api/apis', '/api/portal/policies', '/api/portal/catalogue', '/api/portal/documentation', '/api/portal/configuration'];
/** Long polls one organisation may have waiting at once. */
const MAX_WAITERS_PER_ORG = 16;

export function registerChangeRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const feeds = new Map<string, ChangeFeed>();
  let closing = false;
  const feedOf = (orgId: string): ChangeFeed => {
    let feed = feeds.get(orgId);
    if (!feed) {
      // A refused poll is an HttpError (400 naming the parameter, 503 over the waiter limit), answered by the conventions.
      feed = new ChangeFeed({ maxWaiters: MAX_WAITERS_PER_ORG, onTooManyWaiters: () => deps.log.warn({ org: orgId }, 'change feed: too many watchers') });
      feeds.set(orgId, feed);
      if (closing) feed.close();
    }
    return feed;
  };

  app.addHook('onResponse', async (request, reply) => {
    if (!isCommittedWrite(request.method, request.routeOptions.url, reply.statusCode, WATCHED)) return;
    const caller = callerOf(request);
    if (caller) feedOf(caller.org.id).bump();
  });

  // On shutdown every waiting long poll is answered at once (change-feed.ts), before Fastify waits for requests in
  // flight: the operator's watch must not hold the dashboard's exit for the rest of its 30 s poll.
  app.addHook('preClose', async () => {
    closing = true;
    for (const feed of feeds.values()) feed.close();
  });

  orgRoute(app, '/api/changes', 'apis', {
    GET: async (request, reply, caller) => sendJson(reply, 200, await feedOf(caller.org.id).poll(request.query as Record<string, unknown>, reply.raw)),
  });
}
