// Where a developer calls a catalogue entry's APIs: the gateway's public address joined with each API's listen
// path, shown on the API page. The address is the API's own `domain` when it has one (the gateway routes it by
// Host; the scheme and port are gateway_public_url's, https when unset), else the dashboard's gateway_public_url
// (the address developers call, which the dashboard cannot know by itself). The APIs are those the entry's policy
// grants (its access_rights), read within the site's organisation only. Without gateway_public_url and a domain
// the path alone is shown, and the page says to ask the provider for the gateway's address.
import type { Queryable } from '../../db/database.ts';
import { getApi } from '../store/apis.ts';
import { getPolicy } from '../store/policies.ts';

/** Most APIs of one policy listed on a page. */
const MAX_APIS_SHOWN = 20;

export interface ApiAddress {
  name: string;
  /** An absolute URL, or the listen path alone when the gateway's address is not known. */
  url: string;
  absolute: boolean;
}

/** The base URL of one API: its domain, else gatewayPublicUrl, then the listen path. */
export function apiBaseUrl(gatewayPublicUrl: string | undefined, domain: string, listenPath: string): { url: string; absolute: boolean } {
  // The stored listen path is normalised without its trailing slash; a base URL ends in one (paths are appended).
  const path = `${listenPath.startsWith('/') ? '' : '/'}${listenPath}${listenPath.endsWith('/') ? '' : '/'}`;
  const gateway = gatewayPublicUrl === undefined ? undefined : new URL(gatewayPublicUrl);
  if (domain !== '' && /^[A-Za-z0-9.-]+$/.test(domain)) {
    return { url: `${gateway?.protocol ?? 'https:'}//${domain.toLowerCase()}${gateway?.port ? `:${gateway.port}` : ''}${path}`, absolute: true };
  }
  if (!gateway) return { url: path, absolute: false };
  return { url: `${gateway.origin}${gateway.pathname.replace(/\/+$/, '')}${path}`, absolute: true };
}

/** The addresses of the APIs this policy grants (in the order of its access_rights). */
export async function apiAddressesOfPolicy(db: Queryable, orgId: string, policyId: string, gatewayPublicUrl: string | undefined): Promise<ApiAddress[]> {
  const policy = await getPolicy(db, orgId, policyId);
  const rights = policy?.policy.access_rights;
  if (!rights || typeof rights !== 'object') return [];
  const apis = await Promise.all(
    Object.keys(rights)
      .slice(0, MAX_APIS_SHOWN)
      .map((id) => getApi(db, orgId, id)),
  );
  return apis
    .filter((api) => api !== undefined)
    .map((api) => ({
      name: typeof api.definition.name === 'string' ? api.definition.name : api.id,
      ...apiBaseUrl(gatewayPublicUrl, api.domain, api.listen_path),
    }));
}
