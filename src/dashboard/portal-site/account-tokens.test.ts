// Account link tokens (account-tokens.ts): stored as a hash only, used once, expiring, bound to their organisation
// and purpose, a newer one voiding the older, and a forged secret for a real id refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { openDatabase } from '../../db/open.ts';
import { MIGRATIONS, MIGRATIONS_TABLE } from '../store/schema.ts';
import { insertOrg } from '../store/orgs.ts';
import { insertDeveloper } from '../portal/store/developers.ts';
import { issueAccountToken, peekAccountToken, useAccountToken } from './account-tokens.ts';

describe('account tokens', () => {
  let db: Database;
  const owner = { orgId: 'org1', developerId: 'dev1' };

  beforeAll(async () => {
    db = await openDatabase('memory:');
    await migrate(db, MIGRATIONS_TABLE, MIGRATIONS);
    for (const id of ['org1', 'org2']) await insertOrg(db, { id, owner_name: id, cname: '', operator_managed: false });
    await insertDeveloper(
      db,
      { id: 'dev1', org_id: 'org1', email: 'a@b.test', inactive: false, awaiting_approval: false, fields: {}, keys: {}, subscriptions: {} },
      'hash',
    );
  });
  afterAll(async () => db.close());

  it('is 32 random bytes of secret, stored only as its hash, and used once', async () => {
    const token = await issueAccountToken(db, owner, 'reset-password', 3600);
    const secret = token.split('.')[1]!;
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    const rows = await db.query<Record<string, unknown>>('SELECT * FROM portal_developer_tokens');
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(await peekAccountToken(db, 'org1', 'reset-password', token)).toBe('dev1');
    expect(await useAccountToken(db, 'org1', 'reset-password', token)).toBe('dev1');
    expect(await useAccountToken(db, 'org1', 'reset-password', token)).toBeUndefined();
    expect(await peekAccountToken(db, 'org1', 'reset-password', token)).toBeUndefined();
  });

  it('is used once even by two requests at the same time', async () => {
    const token = await issueAccountToken(db, owner, 'reset-password', 3600);
    const results = await Promise.all([useAccountToken(db, 'org1', 'reset-password', token), useAccountToken(db, 'org1', 'reset-password', token)]);
    expect(results.filter((result) => result === 'dev1')).toHaveLength(1);
  });

  it('is refused after it expires', async () => {
    const token = await issueAccountToken(db, owner, 'verify-email', 3600);
    await db.query("UPDATE portal_developer_tokens SET expires_at = now() - interval '1 second'");
    expect(await useAccountToken(db, 'org1', 'verify-email', token)).toBeUndefined();
  });

  it('belongs to its organisation and purpose; a forged secret for a real id is refused', async () => {
    const token = await issueAccountToken(db, owner, 'verify-email', 3600);
    expect(await useAccountToken(db, 'org2', 'verify-email', token)).toBeUndefined();
    expect(await useAccountToken(db, 'org1', 'reset-password', token)).toBeUndefined();
    const [id, secret] = token.split('.') as [string, string];
    const forged = `${id}.${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
    expect(await useAccountToken(db, 'org1', 'verify-email', forged)).toBeUndefined();
    expect(await useAccountToken(db, 'org1', 'verify-email', 'not a token')).toBeUndefined();
    expect(await useAccountToken(db, 'org1', 'verify-email', token)).toBe('dev1');
  });

  it('voids the earlier token of the same purpose when a new one is issued', async () => {
    const first = await issueAccountToken(db, owner, 'reset-password', 3600);
    const second = await issueAccountToken(db, owner, 'reset-password', 3600);
    expect(await useAccountToken(db, 'org1', 'reset-password', first)).toBeUndefined();
    expect(await useAccountToken(db, 'org1', 'reset-password', second)).toBe('dev1');
  });
});
