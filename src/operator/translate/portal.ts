// The classic portal kinds -> what the dashboard stores (reference portal.md §1-2). Pure: the controllers resolve
// what the specs name in the cluster (policies, APIs, ConfigMaps, documentation ids) and pass it in.
//   catalogue entry   the catalogue's inline entry fields, the APIDescription's copied over them (Tyk's
//                     order), minus the cluster references; plus policy_id, api_id, documentation (the doc id) and
//                     version "v2" when unset
//   documentation     {api_id, doc_type, documentation}: a ConfigMap's plain text is base64-encoded (what the
//                     dashboard expects for swagger); swagger_custom_url sends the URL as it is
//   configuration     the spec minus contextRef and the ids the dashboard owns; org_id is the context's. An
//                     update keeps what the dashboard holds beyond the fields of Tyk's PortalConfig CRD
//                     (portal_name, require_developer_approval, ... set on the dashboard): the dashboard's PUT
//                     replaces the whole configuration, so the operator reads it, then writes it back changed
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

/**
 * The settings of Tyk Operator's PortalConfig CRD (api/model/dash.go): a PortalConfig owns them whether its spec
 * sets them or not (unset: the dashboard's default, as Tyk's full PUT leaves them).
 */
const PORTAL_CONFIG_CRD_FIELDS: ReadonlySet<string> = new Set([
  'signup_fields',
  'key_request_fields',
  'require_key_approval',
  'secure_key_approval',
  'redirect_on_key_request',
  'redirect_to',
  'enable_multi_selection',
  'disable_login',
  'disable_signup',
  'disable_auto_login',
  'catalogue_login_only',
  'oauth_usage_limit',
  'email',
  'mail_options',
  'enable_dcr',
  'dcr_options',
  'override',
]);

/** Answered by the dashboard's GET, never written back (ids it owns, Tyk's read-only HashKeys). */
const DASHBOARD_OWNED = new Set(['id', 'org_id', 'HashKeys']);

const ownedBy = (payload: Definition, field: string): boolean => PORTAL_CONFIG_CRD_FIELDS.has(field) || field in payload;

/** What the dashboard holds that a PortalConfig does not own: the fields set on the dashboard only. */
function dashboardOnly(payload: Definition, current: Definition): Definition {
  return Object.fromEntries(Object.entries(current).filter(([field]) => !DASHBOARD_OWNED.has(field) && !ownedBy(payload, field)));
}

/** The full configuration to PUT over `current`: the dashboard's own fields kept, the PortalConfig's written. */
export function configurationUpdate(payload: Definition, current: Definition): Definition {
  return { ...dashboardOnly(payload, current), ...payload };
}

/** The part of the dashboard's configuration a PortalConfig owns (compared for drift; a dashboard-only edit is none). */
export function ownedConfiguration(payload: Definition, current: Definition): Definition {
  return Object.fromEntries(Object.entries(current).filter(([field]) => field === 'id' || field === 'org_id' || ownedBy(payload, field)));
}

function withoutClusterFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !CLUSTER_FIELDS.includes(key)));
}

function isBase64(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  return compact.length > 0 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact);
}
