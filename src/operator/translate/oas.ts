// GwOasApiDefinition -> the OAS document the gateway stores: the document from its ConfigMap key (JSON, or YAML
// since JSON is YAML), which must hold x-gw-api-gateway, with info.id set to the API's id (the document's own
// info.id, else the deterministic id of namespace/name) and info.orgId to the context's organisation when unset.
// Also what status shows of it: name, domain, listen path, target URL and enabled.
import { parse } from 'yaml';
import type { Definition } from '../../mgmt/client.ts';
import { InvalidSpecError } from '../sync/errors.ts';

const X = 'x-gw-api-gateway';

interface Extension {
  info?: { id?: string; orgId?: string; name?: string; state?: { active?: boolean } };
  upstream?: { url?: string };
  server?: { listenPath?: { value?: string }; customDomain?: { enabled?: boolean; name?: string } };
}

/** Parses the ConfigMap value; `where` names it in messages ("ConfigMap ns/name key oas.json"). */
export function parseOasDocument(text: string, where: string): Definition {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new InvalidSpecError(`${where} is neither JSON nor YAML: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new InvalidSpecError(`${where} must hold an OpenAPI document (an object)`);
  if (!(X in document)) throw new InvalidSpecError(`${where} must contain the ${X} section`);
  return document;
}

/** The document's own info.id, else `fallbackId` (the resource's deterministic id). */
export function oasApiId(document: Definition, fallbackId: string): string {
  const id = (document[X] as Extension).info?.id;
  return typeof id === 'string' && id ? id : fallbackId;
}

export function oasPayload(document: Definition, id: string, org: string): Definition {
  const ext = (document[X] ?? {}) as Extension & Record<string, unknown>;
  return { ...document, [X]: { ...ext, info: { ...ext.info, id, orgId: ext.info?.orgId ?? org } } };
}

export interface OasSummary {
  name?: string;
  domain?: string;
  listenPath?: string;
  targetURL?: string;
  enabled?: boolean;
}

export function oasSummary(document: Definition): OasSummary {
  const ext = (document[X] ?? {}) as Extension;
  const summary: OasSummary = {};
  if (ext.info?.name !== undefined) summary.name = ext.info.name;
  if (ext.server?.customDomain?.enabled && ext.server.customDomain.name) summary.domain = ext.server.customDomain.name;
  if (ext.server?.listenPath?.value !== undefined) summary.listenPath = ext.server.listenPath.value;
  if (ext.upstream?.url !== undefined) summary.targetURL = ext.upstream.url;
  if (ext.info?.state?.active !== undefined) summary.enabled = ext.info.state.active;
  return summary;
}
