// Approved keys kept for their developer: sealed at rest (the row never holds the key), shown once, bound to
// their organisation, developer and request, and unreadable (not wrong) after the sealing secret changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { openDatabase } from '../../db/open.ts';
import { MIGRATIONS, MIGRATIONS_TABLE } from '../store/schema.ts';
import { insertOrg } from '../store/orgs.ts';
import { insertDeveloper } from '../portal/store/developers.ts';
import { insertKeyRequest } from '../portal/store/key-requests.ts';
import { keepKeyForDeveloper, keysWaitingFor, takeKeysForDeveloper } from './key-pickup.ts';

describe('key pickup', () => {
  let db: Database;
  const key = 'org1ffffffffffffffffffffffffffffffff';

  beforeAll(async () => {
    db = await openDatabase('memory:');
    await migrate(db, MIGRATIONS_TABLE, MIGRATIONS);
    await insertOrg(db, { id: 'org1', owner_name: 'One', cname: '', operator_managed: false });
    await insertDeveloper(
      db,
      { id: 'dev1', org_id: 'org1', email: 'a@b.test', inactive: false, awaiting_approval: false, fields: {}, keys: {}, subscriptions: {} },
      'hash',
    );
    for (const id of ['req1', 'req2']) await insertKeyRequest(db, { id, org_id: 'org1', by_user: 'dev1', apply_policies: ['p'], fields: {}, version: 'v2' });
  });
  afterAll(async () => db.close());

  it('stores the key sealed and answers it once, to its developer only', async () => {
    await keepKeyForDeveloper(db, 'secret-1', { orgId: 'org1', developerId: 'dev1', requestId: 'req1' }, key);
    const [row] = await db.query<{ sealed: string }>('SELECT sealed FROM portal_key_pickups');
    expect(Buffer.from(row!.sealed, 'base64').toString('latin1')).not.toContain(key);
    expect(await keysWaitingFor(db, 'org1', 'dev1')).toEqual(['req1']);
    expect(await keysWaitingFor(db, 'org2', 'dev1')).toEqual([]);
    expect(await takeKeysForDeveloper(db, 'secret-1', 'org1', 'someone-else')).toEqual(new Map());
    expect(await takeKeysForDeveloper(db, 'secret-1', 'org1', 'dev1')).toEqual(new Map([['req1', key]]));
    expect(await takeKeysForDeveloper(db, 'secret-1', 'org1', 'dev1')).toEqual(new Map());
    expect(await keysWaitingFor(db, 'org1', 'dev1')).toEqual([]);
  });

  it('answers undefined (and forgets it) when the secret changed', async () => {
    await keepKeyForDeveloper(db, 'secret-1', { orgId: 'org1', developerId: 'dev1', requestId: 'req2' }, key);
    expect(await takeKeysForDeveloper(db, 'secret-2', 'org1', 'dev1')).toEqual(new Map([['req2', undefined]]));
    expect(await takeKeysForDeveloper(db, 'secret-1', 'org1', 'dev1')).toEqual(new Map());
  });
});
