// /api/changes on a real dashboard (PGlite: the feed lives in the process, not the database): a long poll is
// answered when the caller's organisation writes an API or a policy, not when another organisation does; portal
// catalogue, documentation and configuration writes (POST, PUT, DELETE) move the organisation's feed and never
// another's; reads do not move it; a bad parameter is 400 naming it; it needs a credential like the rest of /api.
// On SIGTERM the polls waiting are answered at once (the operator's watch must not hold the dashboard's exit).
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { useDatabases } from '../../support/postgres.ts';

interface Cursor {
  version: number;
  epoch: string;
}

describe('dashboard change feed', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config({ allow_explicit_policy_id: true, enable_duplicate_slugs: true }));
    [a, b] = [await createOrg(dashboard, 'A'), await createOrg(dashboard, 'B')];
  });

  const now = async (org: TestOrg): Promise<Cursor> => (await org.call('GET', '/api/changes?since=0&timeout=0')).json<Cursor>();

  it("wakes a waiting poll on the organisation's own API and policy writes only", async () => {
    const start = await now(a);
    let answered: Cursor | undefined;
    const waiting = a.call('GET', `/api/changes?since=${start.version}&epoch=${start.epoch}&timeout=30`).then((r) => (answered = r.json<Cursor>()));

    expect((await b.call('POST', '/api/apis', classicApi('b api', '/b-api'))).status).toBe(200); // another organisation
    expect((await a.call('GET', '/api/apis')).status).toBe(200); // a read
    expect((await now(a)).version).toBe(start.version);
    expect(answered).toBeUndefined();

    expect((await a.call('POST', '/api/apis', classicApi('a api', '/a-api'))).status).toBe(200);
    await waiting;
    expect(answered).toEqual({ version: start.version + 1, epoch: start.epoch });

    expect((await a.call('POST', '/api/portal/policies', { name: 'Gold', rate: 1, per: 1 })).status).toBe(200);
    expect((await now(a)).version).toBe(start.version + 2);
  });

  it("moves on the organisation's own portal catalogue, documentation and configuration writes only", async () => {
    const document = { doc_type: 'swagger', documentation: Buffer.from('openapi: 3.0.3\ninfo: {title: Feed, version: 1.0.0}\npaths: {}\n').toString('base64') };
    /** The portal writes one organisation makes: POST and PUT of each object, and a documentation DELETE. */
    const portalWrites = async (org: TestOrg): Promise<number> => {
      const ok = async (method: string, path: string, body?: unknown): Promise<string> => {
        const answer = await org.call(method, path, body);
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
        return answer.json<{ Message: string }>().Message;
      };
      const catalogue = await ok('POST', '/api/portal/catalogue', {});
      await ok('PUT', '/api/portal/catalogue', { id: catalogue, email: 'portal@example.com' });
      const doc = await ok('POST', '/api/portal/documentation', document);
      await ok('DELETE', `/api/portal/documentation/${doc}`);
      await ok('POST', '/api/portal/configuration', { disable_signup: true });
      await ok('PUT', '/api/portal/configuration', { disable_signup: false });
      return 6;
    };
    const startA = await now(a);
    const startB = await now(b);

    const writesOfB = await portalWrites(b);
    expect(await now(b)).toEqual({ version: startB.version + writesOfB, epoch: startB.epoch });
    expect(await now(a)).toEqual(startA); // another organisation's portal edits never reach a's feed

    // A refused write (400) and reads do not move it.
    expect((await a.call('POST', '/api/portal/documentation', { doc_type: 'swagger' })).status).toBe(400);
    expect((await a.call('GET', '/api/portal/configuration')).status).toBe(404);
    expect(await now(a)).toEqual(startA);

    let answered: Cursor | undefined;
    const waiting = a.call('GET', `/api/changes?since=${startA.version}&epoch=${startA.epoch}&timeout=30`).then((r) => (answered = r.json<Cursor>()));
    const writesOfA = await portalWrites(a);
    await waiting;
    expect(answered?.version).toBeGreaterThan(startA.version);
    expect(await now(a)).toEqual({ version: startA.version + writesOfA, epoch: startA.epoch });
    expect((await now(b)).version).toBe(startB.version + writesOfB);
  });

  it('refuses a bad parameter with 400 naming it, and a caller without a credential with 401', async () => {
    const bad = await a.call('GET', '/api/changes?since=-3');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('since');
    expect((await dashboard.anonymous('GET', '/api/changes?since=0')).status).toBe(401);
  });

  // Last: it stops the file's dashboard.
  it('answers the long polls waiting on SIGTERM at once, with the unchanged version, then exits 0', async () => {
    const start = await now(a);
    // An organisation may have 16 polls waiting (routes/changes.ts): of 17 one is refused 503 at once, and only once
    // the other 16 are waiting.
    const polls = Array.from({ length: 17 }, (_, index) =>
      a.call('GET', `/api/changes?since=${start.version}&epoch=${start.epoch}&timeout=60`).then((answer) => ({ answer, index })),
    );
    const refused = await Promise.race(polls);
    expect(refused.answer.status).toBe(503);
    const exit = dashboard.stop('SIGTERM');
    const answers = (await Promise.all(polls.filter((_, index) => index !== refused.index))).map(({ answer }) => answer);
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 16 }, () => 200));
    expect(answers.every((answer) => answer.json<Cursor>().version === start.version)).toBe(true);
    expect(await exit).toBe(0);
  });
});
