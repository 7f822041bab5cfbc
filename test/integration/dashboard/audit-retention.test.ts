// The audit log's retention on a real dashboard and PostgreSQL: entries recorded by real writes, dated on an injected
// clock, are pruned by the dashboard's retention mechanism (retention.ts with store/audit.ts pruneAudit) past
// audit_retention_days in every organisation, while newer ones stay and stay readable through GET /api/audit.
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { Retention } from '../../../src/dashboard/retention.ts';
import { pruneAudit } from '../../../src/dashboard/store/audit.ts';
import { classicApi, createOrg, startDashboard, type Call, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startPostgres } from '../../support/postgres.ts';

const DAY_MS = 86_400_000;
/** The injected "now": far from the real clock, so only the dates set here decide what goes. */
const NOW = Date.parse('2031-03-01T12:00:00Z');

describe('audit log retention', () => {
  let dashboard: RunningDashboard;
  let db: Database;
  let orgs: TestOrg[];
  let auditors: Call[];

  beforeAll(async () => {
    const postgres = await startPostgres();
    const url = postgres.createDatabase('audit_retention');
    dashboard = await startDashboard({ database_url: url });
    db = await openDatabase(url);
    orgs = await Promise.all([createOrg(dashboard, 'Kept'), createOrg(dashboard, 'Pruned too')]);
    auditors = await Promise.all(orgs.map(async (org) => dashboard.as(await org.user({ audit_logs: 'read' }))));
    return () => db.close();
  });

  /** Creates an API (one audit entry) and dates its entry `daysAgo` before NOW; answers the API's id. */
  const auditedWrite = async (org: TestOrg, name: string, daysAgo: number): Promise<string> => {
    const created = await org.call('POST', '/api/apis', { api_definition: classicApi(name, `/${name}/`) });
    expect(created.status, created.text).toBe(200);
    const id = created.json<{ Meta: string }>().Meta;
    const dated = await db.query('UPDATE dashboard_audit SET at = $2::timestamptz WHERE org_id = $1 AND object_id = $3 RETURNING id', [
      org.id,
      new Date(NOW - daysAgo * DAY_MS).toISOString(),
      id,
    ]);
    expect(dated).toHaveLength(1);
    return id;
  };
  const auditedIds = async (auditor: Call): Promise<string[]> =>
    (await auditor('GET', '/api/audit?p=-2'))
      .json<{ entries: { object_id: string }[] }>()
      .entries.map((e) => e.object_id)
      .filter((id) => id !== '');

  it('deletes the entries older than the retention in every organisation and keeps the newer ones', async () => {
    const [kept, alsoPruned] = orgs as [TestOrg, TestOrg];
    const old = await auditedWrite(kept, 'old', 91);
    const justInside = await auditedWrite(kept, 'inside', 89);
    const recent = await auditedWrite(kept, 'recent', 0.5);
    await auditedWrite(alsoPruned, 'other-old', 400);
    const otherRecent = await auditedWrite(alsoPruned, 'other-recent', 1);
    expect(await auditedIds(auditors[0]!)).toEqual(expect.arrayContaining([old, justInside, recent]));

    const log = pino({ level: 'silent' });
    const retention = new Retention(db, { what: 'audit log', retentionDays: 90, intervalSeconds: 3600, prune: pruneAudit, now: () => NOW }, log);
    await retention.stop(); // waits for the prune it ran at start

    expect(await auditedIds(auditors[0]!)).toEqual([recent, justInside]);
    expect(await auditedIds(auditors[1]!)).toEqual([otherRecent]);
    expect(await pruneAudit(db, NOW - 90 * DAY_MS)).toBe(0);
  });
});
