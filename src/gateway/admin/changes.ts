// /gw/changes: the change feed of this gateway's management objects (src/http/change-feed.ts), behind the same
// secret as the rest of /gw/. The version is bumped after every successful (2xx) write — POST, PUT, PATCH or
// DELETE — to an API (Classic or OAS) or a policy, i.e. once the write was committed and answered; reads, keys,
// certificates and reloads do not count. It only observes answers: it must never change what a write does.
// The counter is this process's: in a Redis group, a write made through another gateway moves that gateway's feed,
// not this one's (the operator's periodic scan still finds it).
//   GET /gw/changes?since=N[&epoch=E][&timeout=S]   200 {version, epoch} (long poll; see change-feed.ts)
import type { FastifyInstance } from 'fastify';
import { ChangeFeed, ChangeFeedError, isCommittedWrite } from '../../http/change-feed.ts';
import type { AdminDeps } from './deps.ts';
import { route, sendError, sendJson } from './http.ts';

const WATCHED = ['/gw/apis', '/gw/policies'];

export function registerChangeRoutes(app: FastifyInstance, deps: AdminDeps, feed = new ChangeFeed()): ChangeFeed {
  app.addHook('onResponse', async (request, reply) => {
    if (isCommittedWrite(request.method, request.routeOptions.url, reply.statusCode, WATCHED)) feed.bump();
  });
  route(app, '/gw/changes', {
    GET: async (request, reply) => {
      try {
        return sendJson(reply, 200, await feed.poll(request.query as Record<string, unknown>, reply.raw));
      } catch (error) {
        if (!(error instanceof ChangeFeedError)) throw error;
        if (error.status === 503) deps.log.warn({ waiting: feed.waiting }, 'change feed: too many watchers');
        return sendError(reply, error.status, error.message);
      }
    },
  });
  return feed;
}
