// Portal key requests, for both sides. createKeyRequest checks that the developer and every policy belong to the
// organisation (and that the policies allow new keys) before storing the request. approveKeyRequest issues the
// key to the developer (developer-keys.ts: the dashboard's one key creation, the key applying the request's
// policies, recorded on the developer) and marks the request approved, all in one transaction that bumps the
// revision so gateways load the key. The raw key is returned once, as Tyk's {RawKey, Password}. requestKey is the
// developer's self-service path: only a catalogue entry's policy may be asked for, and the request is approved at
// once unless the portal configuration (or the entry's overriding config) requires approval. declineKeyRequest keeps
// the request, marked declined with the admin's reason, for the developer to read on "My keys" (Tyk deletes it).
import type { Database, Queryable } from '../../db/database.ts';
import { checkAppliedPolicies } from '../access-rights.ts';
import { HttpError, notFound } from '../http.ts';
import type { DashboardConfig } from '../config.ts';
import { objectId } from '../ids.ts';
import { keepKeyForDeveloper } from '../portal-site/key-pickup.ts';
import { write } from '../store/write.ts';
import { issueDeveloperKeyIn, type IssuedKey, type KeyDeps } from './developer-keys.ts';
import type { KeyRequestInput } from './schemas.ts';
import { entryForPolicy, getCatalogue } from './store/catalogue.ts';
import { portalSettings } from './store/configuration.ts';
import { getDeveloper } from './store/developers.ts';
import { getKeyRequest, insertKeyRequest, markKeyRequestApproved, markKeyRequestDeclined, type KeyRequest } from './store/key-requests.ts';

/** An approval also needs admin_secret: it seals the key kept for the developer to see once (portal-site/key-pickup.ts). */
export type ApprovalDeps = KeyDeps & { config: Pick<DashboardConfig, 'admin_secret'> };

async function checkDeveloper(tx: Queryable, orgId: string, id: string): Promise<void> {
  if (!(await getDeveloper(tx, orgId, id))) throw new HttpError('invalid', `by_user: developer ${id} not found in this organisation`);
}

/** Stores a pending request (400 naming by_user or apply_policies[n] when they are not the organisation's). */
export async function createKeyRequest(db: Database, orgId: string, input: KeyRequestInput): Promise<KeyRequest> {
  return write(db, orgId, { bumpRevision: false }, async (tx) => {
    await checkDeveloper(tx, orgId, input.by_user);
    await checkAppliedPolicies(tx, orgId, { apply_policies: input.apply_policies }, true);
    const id = objectId();
    await insertKeyRequest(tx, {
      id,
      org_id: orgId,
      by_user: input.by_user,
      apply_policies: input.apply_policies,
      fields: input.fields,
      version: input.version,
    });
    return (await getKeyRequest(tx, orgId, id))!;
  });
}

/** Approves a pending request: creates its key. 404 when missing, 409 when already approved or declined, or its developer awaits approval. */
export async function approveKeyRequest(deps: ApprovalDeps, orgId: string, id: string): Promise<IssuedKey> {
  return write(deps.db, orgId, { bumpRevision: true }, async (tx) => {
    const request = await getKeyRequest(tx, orgId, id);
    if (!request) throw notFound('Key request');
    if (request.approved) throw new HttpError('conflict', `key request ${id} is already approved`);
    if (request.declined) throw new HttpError('conflict', `key request ${id} was declined: the developer can request a key again`);
    const developer = await getDeveloper(tx, orgId, request.by_user);
    if (!developer) throw notFound('Developer');
    // require_developer_approval vets developers before they hold keys: approve the developer first.
    if (developer.awaiting_approval) throw new HttpError('conflict', `developer ${developer.id} is awaiting approval: approve the developer first`);
    const created = await issueDeveloperKeyIn(tx, deps.config, developer, request.apply_policies);
    await markKeyRequestApproved(tx, orgId, id, created.storage_id);
    // The developer sees the key once in the portal (Tyk e-mails it).
    await keepKeyForDeveloper(tx, deps.config.admin_secret, { orgId, developerId: developer.id, requestId: id }, created.key);
    return { RawKey: created.key, Password: '' };
  });
}

/** Declines a pending request, keeping it with the reason. 404 when missing, 409 when approved or already declined. */
export async function declineKeyRequest(db: Database, orgId: string, id: string, reason: string): Promise<void> {
  await write(db, orgId, { bumpRevision: false }, async (tx) => {
    const request = await getKeyRequest(tx, orgId, id);
    if (!request) throw notFound('Key request');
    if (request.approved) throw new HttpError('conflict', `key request ${id} is already approved: revoke its key instead`);
    if (request.declined) throw new HttpError('conflict', `key request ${id} is already declined`);
    await markKeyRequestDeclined(tx, orgId, id, reason);
  });
}

export interface SelfServiceRequest {
  /** The catalogue entry's policy. */
  policyId: string;
  /** Answers to the configuration's key_request_fields. */
  fields: Record<string, string>;
}

/**
 * A developer asks for a key to a catalogue entry (the portal's "Request an API key"). 400 `policy_id` when no
 * shown, non-keyless entry of the organisation's catalogue names the policy. Answers the request and, when it
 * was approved at once, the key (shown this once).
 */
export async function requestKey(
  deps: ApprovalDeps,
  orgId: string,
  developerId: string,
  asked: SelfServiceRequest,
): Promise<{ request: KeyRequest; key?: string }> {
  const entry = entryForPolicy(await getCatalogue(deps.db, orgId), asked.policyId);
  if (!entry || !entry.show || entry.is_keyless)
    throw new HttpError('invalid', `policy_id: ${asked.policyId} is not an entry of this organisation's catalogue that issues keys`);
  const settings = entry.config?.override ? entry.config : await portalSettings(deps.db, orgId);
  const request = await createKeyRequest(deps.db, orgId, { by_user: developerId, apply_policies: [asked.policyId], fields: asked.fields, version: 'v2' });
  if (settings.require_key_approval) return { request };
  const approved = await approveKeyRequest(deps, orgId, request.id);
  return { request: (await getKeyRequest(deps.db, orgId, request.id))!, key: approved.RawKey };
}
