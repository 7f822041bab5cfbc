// /gw/changes: the change feed of this gateway's management objects (src/http/change-feed.ts), behind the same
// secret as the rest of /gw/. The version is bumped after every successful (2xx) write — POST, PUT, PATCH or
// DELETE — to an API (Classic or OAS) or a policy, i.e. once the write was committed and answered; reads, keys,
// certificates and reloads do not count. It only observes answers: it must never change what a write does.
// The counter is this gateway's, shared by its worker threads (deps.changeFeed: one version and epoch whichever
// worker answers). In a Redis group, a write made through another gateway moves that gateway's feed,
// not this one's (the operator's periodic scan still finds it).
//   GET /gw/changes?since=N[&epoch=E][&timeout=S]   200 {version, epoch} (long poll; see change-feed.ts)
import type { FastifyInstance } from 'fastify';
import { ChangeFeed, isCommittedWrite } from '../../http/change-feed.ts';
import type { AdminDeps } from './deps.ts';
import { route, sendJson } from './http.ts';

const WATCHED = ['/gw/apis', '/gw/policies'];

export function registerChangeRoutes(app: FastifyInstance, deps: AdminDeps): ChangeFeed {
  // A refused poll is an HttpError (400 naming the parameter, 503 over the waiter limit), answered by the conventions.
  const feed: ChangeFeed =
    deps.changeFeed ?? new ChangeFeed({ onTooManyWaiters: () => deps.log.warn({ waiting: feed.waiting }, 'change feed: too many watchers') });
  app.addHook('onResponse', async (request, reply) => {
    if (isCommittedWrite(request.method, request.routeOptions.url, reply.statusCode, WATCHED)) feed.bump();
  });
  route(app, '/gw/changes', {
    GET: async (request, reply) => sendJson(reply, 200, await feed.poll(request.query as Record<string, unknown>, reply.raw)),
  });
  return feed;
}
