// The classic portal kinds -> what the dashboard stores (reference portal.md §1-2). Pure: the controllers resolve
// what the specs name in the cluster (policies, APIs, ConfigMaps, documentation ids) and pass it in.
//   catalogue entry   the catalogue's inline entry fields, the APIDescription's copied over them (Tyk's
//                     order), minus the cluster references; plus policy_id, api_id, documentation (the doc id) and
//                     version "v2" when unset
//   documentation     {api_id, doc_type, documentation}: a ConfigMap's plain text is base64-encoded (what the
//                     dashboard expects for swagger); swagger_custom_url sends the URL as it is
//   configuration     the spec minus contextRef and the ids the dashboard owns; org_id is the context's
import type { z } from 'zod';
import type { APIDescriptionSpec, PortalConfigSpec } from '../../domain/crd/portal.ts';
import type { Definition } from '../../mgmt/client.ts';
import { InvalidSpecError } from '../sync/errors.ts';

type DescriptionSpec = z.infer<typeof APIDescriptionSpec>;

/** Fields naming cluster objects: resolved by the operator, never sent. */
const CLUSTER_FIELDS = ['apiDescriptionRef', 'policyRef', 'apiRef', 'contextRef', 'documentation', 'docs'];

export interface ResolvedEntry {
  policyId: string;
  apiId: string | undefined;
  /** The dashboard's id of the entry's documentation, when it has one. */
  documentationId: string | undefined;
}

/** A catalogue entry: inline fields, then the description's over them, then what the operator resolved. */
export function catalogueEntry(inline: Record<string, unknown>, description: DescriptionSpec, resolved: ResolvedEntry): Definition {
  const entry: Definition = { ...withoutClusterFields(inline), ...withoutClusterFields(description) };
  entry.policy_id = resolved.policyId;
  if (resolved.apiId !== undefined) entry.api_id = resolved.apiId;
  if (resolved.documentationId !== undefined) entry.documentation = resolved.documentationId;
  entry.version ??= 'v2';
  return entry;
}

export interface DocumentSource {
  /** The ConfigMap value (plain text) when documentation.configMapRef is set. */
  configMapText?: string | undefined;
}

/** The documentation upload for a description, or undefined when it has none. `apiId`: the id it documents. */
export function documentationPayload(
  spec: DescriptionSpec,
  apiId: string,
  source: DocumentSource,
): { api_id: string; doc_type: string; documentation: string } | undefined {
  const docs = spec.documentation;
  if (!docs) return undefined;
  const docType = docs.doc_type ?? 'swagger';
  let documentation: string | undefined;
  if (docType === 'swagger_custom_url') {
    documentation = docs.link_documentation ?? docs.documentation;
    if (!documentation) throw new InvalidSpecError('spec.documentation.link_documentation: a swagger_custom_url document needs the URL');
  } else if (docs.configMapRef) {
    documentation = Buffer.from(source.configMapText ?? '', 'utf8').toString('base64');
  } else {
    documentation = docs.documentation;
    if (!documentation) return undefined;
    if (!isBase64(documentation))
      throw new InvalidSpecError('spec.documentation.documentation: must be base64-encoded (or name a ConfigMap in documentation.configMapRef)');
  }
  return { api_id: apiId, doc_type: docType, documentation };
}

/** The configuration the dashboard stores for a PortalConfig. */
export function configurationPayload(spec: z.infer<typeof PortalConfigSpec>, orgId: string): Definition {
  const { contextRef: _contextRef, id: _id, org_id: _orgId, ...rest } = spec as Record<string, unknown>;
  return { ...rest, org_id: orgId };
}

function withoutClusterFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !CLUSTER_FIELDS.includes(key)));
}

function isBase64(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  return compact.length > 0 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact);
}
