// A key an admin approved, kept for its developer to see once in the portal (Tyk e-mails it; the portal
// shows it on the developer's next visit to "My keys", then forgets it). Kept encrypted (AES-256-GCM under a key
// derived with HKDF from the dashboard's admin_secret, the org, developer and request ids bound as associated
// data), so the database alone never holds a usable credential; taking it deletes the row in the same statement,
// so it is shown exactly once; taking it is a form post (never a GET a browser might prefetch). A pickup goes with its organisation and its key request. Must never log a key.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';

export const KEY_PICKUPS_SQL = `
CREATE TABLE portal_key_pickups (
  request_id text PRIMARY KEY REFERENCES dashboard_portal_key_requests (id) ON DELETE CASCADE,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  developer_id text NOT NULL,
  sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_key_pickups_developer ON portal_key_pickups (org_id, developer_id);
`;

export interface KeyPickup {
  orgId: string;
  developerId: string;
  requestId: string;
}

function sealingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'gw-portal-key-pickup', 'aes-256-gcm', 32));
}

const aad = (pickup: KeyPickup): Buffer => Buffer.from(`${pickup.orgId}\u0000${pickup.developerId}\u0000${pickup.requestId}`);

/** Keeps the approved key for its developer (in the approval's transaction). */
export async function keepKeyForDeveloper(tx: Queryable, secret: string, pickup: KeyPickup, key: string): Promise<void> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv).setAAD(aad(pickup));
  const sealed = Buffer.concat([iv, cipher.update(key, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
  await tx.query('INSERT INTO portal_key_pickups (request_id, org_id, developer_id, sealed) VALUES ($1, $2, $3, $4)', [
    pickup.requestId,
    pickup.orgId,
    pickup.developerId,
    sealed,
  ]);
}

/** Removes the key kept for a request (the developer saw it another way). */
export async function discardKeyPickup(db: Queryable, orgId: string, requestId: string): Promise<void> {
  await db.query('DELETE FROM portal_key_pickups WHERE org_id = $1 AND request_id = $2', [orgId, requestId]);
}

/** The requests whose approved key waits for this developer (nothing is opened or deleted). */
export async function keysWaitingFor(db: Queryable, orgId: string, developerId: string): Promise<string[]> {
  const rows = await db.query<{ request_id: string }>(
    'SELECT request_id FROM portal_key_pickups WHERE org_id = $1 AND developer_id = $2 ORDER BY created_at, request_id',
    [orgId, developerId],
  );
  return rows.map((row) => row.request_id);
}

/**
 * Takes (and deletes) every key kept for this developer: request id -> key. A key that no longer opens (the
 * admin_secret changed) is dropped and answered as undefined: the developer asks an admin for a new one.
 */
export async function takeKeysForDeveloper(db: Queryable, secret: string, orgId: string, developerId: string): Promise<Map<string, string | undefined>> {
  const rows = await db.query<{ request_id: string; sealed: string }>(
    'DELETE FROM portal_key_pickups WHERE org_id = $1 AND developer_id = $2 RETURNING request_id, sealed',
    [orgId, developerId],
  );
  const keys = new Map<string, string | undefined>();
  for (const row of rows) {
    const raw = Buffer.from(row.sealed, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), raw.subarray(0, 12)).setAAD(aad({ orgId, developerId, requestId: row.request_id }));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      keys.set(row.request_id, Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8'));
    } catch {
      keys.set(row.request_id, undefined);
    }
  }
  return keys;
}
