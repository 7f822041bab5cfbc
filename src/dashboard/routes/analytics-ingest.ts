// The node API's analytics intake (header x-gw-node-secret, like /system/node/config):
//   POST /system/analytics[?org_id=<id>]   {"records": [AnalyticsRecord, ...]}   (api/analytics-record.ts)
//     200 {"accepted": n, "rejected": m, "problems"?: ["records[3].status: ...", ...]}
// Each record is filed under the organisation that owns the API it names, as the gateway was served it: with
// org_id (a gateway bound to one organisation) only that organisation's APIs count; without, the served id is
// mapped back through the node API's one id space (node-ids.ts servedApiIds). A record's own org_id is never
// believed, so a gateway cannot file traffic into another organisation's analytics. Records naming no such API
// are counted as rejected and dropped (answered 200 all the same: resending them would not help), and so are
// records that are not valid (each checked on its own, so one bad record never costs the rest of its batch; the
// first few problems are named). The body is bounded by max_body_bytes and parsed by the shared bounded parser; a
// body that is not a batch is 400 naming the field. Accepted records are
// added to the per-minute aggregates, and those recorded in detail to the request log, in one transaction.
import type { FastifyInstance } from 'fastify';
import { AnalyticsBatch, AnalyticsRecord } from '../../domain/analytics-record.ts';
import { describeIssues } from '../../domain/zod-issues.ts';
import { aggregate, type FiledRecord } from '../analytics/aggregate.ts';
import type { DashboardDeps } from '../deps.ts';
import { objectBody, parseWith, query, route, sendJson } from '../http.ts';
import { addAggregates, addLogEntries, apiOrgs, existingOrgs } from '../store/analytics.ts';
import { revision } from '../store/write.ts';
import { servedApiIds } from './node-ids.ts';

type ApiOwners = Map<string, { id: string; org_id: string }>;

/** Most record problems named in one answer. */
const MAX_PROBLEMS = 10;

export function registerAnalyticsIngestRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;
  /** Per org_id filter: who owns each served API id, as of one revision. */
  let cached: { revision: string; filter: string; owners: Promise<ApiOwners> } | undefined;

  const ownersOf = async (orgId: string | undefined): Promise<ApiOwners> => {
    const current = await revision(db);
    const filter = orgId ?? '';
    if (cached?.revision === current && cached.filter === filter) return cached.owners;
    const owners = apiOrgs(db, orgId).then((rows) => (orgId === undefined ? servedApiIds(rows) : new Map(rows.map((row) => [row.id, row]))));
    cached = { revision: current, filter, owners };
    owners.catch(() => (cached = undefined));
    return owners;
  };

  route(app, '/system/analytics', {
    POST: async (request, reply) => {
      const { records } = parseWith(AnalyticsBatch, objectBody(request, 'the analytics batch'));
      const orgId = query(request, 'org_id') || undefined;
      const owners = await ownersOf(orgId);
      const candidates: FiledRecord[] = [];
      const problems: string[] = [];
      records.forEach((raw, index) => {
        const parsed = AnalyticsRecord.safeParse(raw);
        if (!parsed.success) {
          if (problems.length < MAX_PROBLEMS) problems.push(describeIssues(parsed.error, { prefix: `records[${index}]`, limit: 1 }));
          return;
        }
        const owner = owners.get(parsed.data.api_id);
        if (owner) candidates.push({ org_id: owner.org_id, api_id: owner.id, record: parsed.data });
      });
      const accepted = await db.transaction(async (tx) => {
        // An organisation deleted since the owners were read takes its records with it (never a foreign-key
        // failure, which the gateway would retry forever).
        const alive = new Set(await existingOrgs(tx, [...new Set(candidates.map((entry) => entry.org_id))]));
        const filed = candidates.filter((entry) => alive.has(entry.org_id));
        if (filed.length === 0) return 0;
        await addAggregates(tx, aggregate(filed));
        await addLogEntries(
          tx,
          filed.filter((entry) => entry.record.request !== undefined || entry.record.response !== undefined),
        );
        return filed.length;
      });
      return sendJson(reply, 200, { accepted, rejected: records.length - accepted, ...(problems.length > 0 ? { problems } : {}) });
    },
  });
}
