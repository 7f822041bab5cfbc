// Writing the organisation's one catalogue (POST creates it, PUT replaces its email and entries), in one
// transaction under the organisation's lock. Every entry must name a policy of the organisation and, when it
// names documentation, a documentation object of the organisation: a reference to another organisation's object
// is refused exactly like a reference to nothing (400 naming `apis[n].policy_id` / `apis[n].documentation`), so
// the answer reveals nothing about other organisations. A body's `org_id`, when given, must be the caller's.
import type { Database, Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../http.ts';
import { objectId } from '../ids.ts';
import { policiesByIds } from '../store/policies.ts';
import { write } from '../store/write.ts';
import type { CatalogueInput } from './schemas.ts';
import { getCatalogue, insertCatalogue, updateCatalogue, type Catalogue } from './store/catalogue.ts';
import { existingDocumentationIds } from './store/documentation.ts';

async function checkEntries(tx: Queryable, orgId: string, input: CatalogueInput): Promise<void> {
  const policies = await policiesByIds(
    tx,
    orgId,
    input.apis.map((entry) => entry.policy_id),
  );
  const docs = await existingDocumentationIds(
    tx,
    orgId,
    input.apis.map((entry) => entry.documentation).filter((id) => id !== ''),
  );
  input.apis.forEach((entry, index) => {
    if (!policies.has(entry.policy_id)) throw new HttpError('invalid', `apis[${index}].policy_id: policy ${entry.policy_id} not found in this organisation`);
    if (entry.documentation !== '' && !docs.has(entry.documentation)) {
      throw new HttpError('invalid', `apis[${index}].documentation: documentation ${entry.documentation} not found in this organisation`);
    }
  });
}

function checkOrg(orgId: string, input: CatalogueInput): void {
  if (input.org_id !== undefined && input.org_id !== '' && input.org_id !== orgId)
    throw new HttpError('invalid', `org_id: must be this organisation's id (${orgId})`);
}

/** Creates the organisation's catalogue; 409 when it has one. */
export async function createCatalogue(db: Database, orgId: string, input: CatalogueInput): Promise<Catalogue> {
  checkOrg(orgId, input);
  return write(db, orgId, { bumpRevision: false }, async (tx) => {
    const existing = await getCatalogue(tx, orgId);
    if (existing) throw new HttpError('conflict', `this organisation already has a catalogue (${existing.id}): update it with PUT`);
    await checkEntries(tx, orgId, input);
    const catalogue: Catalogue = { id: objectId(), org_id: orgId, email: input.email, apis: input.apis };
    await insertCatalogue(tx, catalogue);
    return catalogue;
  });
}

/** Replaces the catalogue's email and entries; 404 when the organisation has none or the body names another id. */
export async function replaceCatalogue(db: Database, orgId: string, input: CatalogueInput): Promise<Catalogue> {
  checkOrg(orgId, input);
  return write(db, orgId, { bumpRevision: false }, async (tx) => {
    const existing = await getCatalogue(tx, orgId);
    if (!existing || (input.id !== undefined && input.id !== '' && input.id !== existing.id)) throw notFound('Catalogue');
    await checkEntries(tx, orgId, input);
    const catalogue: Catalogue = { ...existing, email: input.email, apis: input.apis };
    await updateCatalogue(tx, catalogue);
    return catalogue;
  });
}
