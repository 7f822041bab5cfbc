// Portal documentation objects in the database, by id within one organisation: the document exactly as sent
// (base64 Swagger/OpenAPI text for `swagger`, a URL for `swagger_custom_url`, GraphQL text for `graphql`).
// Another organisation's id reads as nothing.
import type { Queryable } from '../../../db/database.ts';
import type { DocType } from '../schemas.ts';

export interface Documentation {
  id: string;
  org_id: string;
  api_id: string;
  doc_type: DocType;
  documentation: string;
}

const COLUMNS = 'id, org_id, api_id, doc_type, documentation';

export async function getDocumentation(db: Queryable, orgId: string, id: string): Promise<Documentation | undefined> {
  const rows = await db.query<Documentation>(`SELECT ${COLUMNS} FROM dashboard_portal_docs WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0];
}

/** Which of these ids are documentation objects of the organisation. */
export async function existingDocumentationIds(db: Queryable, orgId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>('SELECT id FROM dashboard_portal_docs WHERE org_id = $1 AND id = ANY($2::text[])', [orgId, ids]);
  return new Set(rows.map((row) => row.id));
}

export async function insertDocumentation(db: Queryable, doc: Documentation): Promise<void> {
  await db.query('INSERT INTO dashboard_portal_docs (id, org_id, api_id, doc_type, documentation) VALUES ($1, $2, $3, $4, $5)', [
    doc.id,
    doc.org_id,
    doc.api_id,
    doc.doc_type,
    doc.documentation,
  ]);
}

export async function deleteDocumentation(db: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM dashboard_portal_docs WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
