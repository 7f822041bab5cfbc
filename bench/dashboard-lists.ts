// bench/dashboard-lists: how long the dashboard's list pages take with a large organisation. Seeds 10 000 keys
// (aliases, policies, half of them hashed) and 1 000 policies through the dashboard's store into PGlite (or the
// PostgreSQL of DATABASE_URL), then times the queries a page of each list runs (the routes' database work, the
// part that grows with the organisation): the first page, page N, and searches (key alias prefix, a key by its
// hash, a storage id prefix, a policy's key usage). Prints the median of 20 runs each; target ≤ 300 ms per page.
//   node scripts/node24.mjs node bench/dashboard-lists.ts
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashKey } from '../src/domain/key-hash.ts';
import { openMigratedDatabase } from '../src/db/migrated.ts';
import { MIGRATIONS, MIGRATIONS_TABLE } from '../src/dashboard/store/schema.ts';
import { insertOrg } from '../src/dashboard/store/orgs.ts';
import { insertKey, keysApplyingPolicy, listKeySummaries } from '../src/dashboard/store/keys.ts';
import { insertPolicy, listPolicies } from '../src/dashboard/store/policies.ts';

const KEYS = 10_000;
const POLICIES = 1_000;
const PAGE_SIZE = 10;
const RUNS = 20;

const dir = process.env.DATABASE_URL === undefined ? mkdtempSync(join(tmpdir(), 'gw-bench-lists-')) : undefined;
const opened = await openMigratedDatabase(process.env.DATABASE_URL ?? dir!, MIGRATIONS_TABLE, MIGRATIONS);
const db = opened.db;
const org = `bench${randomBytes(6).toString('hex')}`;
const seedStart = performance.now();
await insertOrg(db, { id: org, owner_name: 'Bench', cname: '', operator_managed: false });
const policyIds = Array.from({ length: POLICIES }, (_, i) => `pol${i}`);
await db.transaction(async (tx) => {
  for (const id of policyIds) await insertPolicy(tx, { id, org_id: org, policy: { id, org_id: org, name: `Policy ${id}`, rate: 10, per: 1 } }, id);
});
const keys: string[] = [];
await db.transaction(async (tx) => {
  for (let i = 0; i < KEYS; i++) {
    const key = `${org}${randomBytes(16).toString('hex')}`;
    keys.push(key);
    const hashed = i % 2 === 0;
    await insertKey(tx, {
      storage_id: hashed ? hashKey(key) : key,
      org_id: org,
      hashed,
      session: { alias: `client-${String(i).padStart(5, '0')}`, apply_policies: [policyIds[i % POLICIES]!], expires: 0, org_id: org },
    });
  }
});
console.log(`seeded ${KEYS} keys and ${POLICIES} policies in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

async function median(label: string, run: () => Promise<unknown>): Promise<void> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const ms = times[Math.floor(RUNS / 2)]!;
  console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms${ms > 300 ? '  OVER the 300 ms target' : ''}`);
}

const page = (n: number) => ({ limit: PAGE_SIZE, offset: (n - 1) * PAGE_SIZE });
await median('keys: first page', () => listKeySummaries(db, org, page(1)));
await median(`keys: page ${KEYS / PAGE_SIZE} (last)`, () => listKeySummaries(db, org, page(KEYS / PAGE_SIZE)));
await median('keys: search alias prefix "client-0999"', () => listKeySummaries(db, org, page(1), { text: 'client-0999', hash: hashKey('client-0999') }));
const hashedKey = keys[4242]!;
await median('keys: search a hashed key', () => listKeySummaries(db, org, page(1), { text: hashedKey, hash: hashKey(hashedKey) }));
await median('keys: search a storage id prefix', () => listKeySummaries(db, org, page(1), { text: keys[4243]!.slice(0, 20), hash: '' }));
await median('policies: first page', () => listPolicies(db, org, page(1)));
await median(`policies: page ${POLICIES / PAGE_SIZE} (last)`, () => listPolicies(db, org, page(POLICIES / PAGE_SIZE)));
await median('policies: keys applying one (delete dialog)', () => keysApplyingPolicy(db, org, 'pol7'));

await db.query('DELETE FROM dashboard_orgs WHERE id = $1', [org]);
await opened.close();
if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
