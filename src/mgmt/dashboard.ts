// The management client of the dashboard (pro mode): /api/... with the operator user's access key raw in
// Authorization, everything inside the user's organisation (GW_ORG, or the OperatorContext's org).
//   APIs       PUT /api/apis/<id> {api_definition}; a 404 means "not there yet": POST /api/apis with the id in the
//              definition (the dashboard keeps a given api_id), list GET /api/apis?p=-2 (all pages)
//   OAS APIs   PUT /api/apis/oas/<id>, else POST /api/apis/oas; GET /api/apis/oas?p=-2
//   policies   PUT /api/portal/policies/<id>, else POST /api/portal/policies with the explicit id; the dashboard
//              answers the id it stored in Message: a different one means allow_explicit_policy_id is off there, and
//              the write is reported as invalid with what to change (gw's documented policy-id matching settings)
//   reload     nothing: the dashboard tells its gateways by itself
//   changes    GET /api/changes (the organisation's change feed; 404 on a dashboard without one)
// Owner: inside a reconcile the operator's calls carry x-gw-k8s-object (http/k8s-object-header.ts).
// Transport, retries and error kinds: http.ts.
import { MgmtError, type ChangeCursor, type Definition, type ManagementClient } from './client.ts';
import { ManagementHttp, PlainText, type ManagementHttpOptions } from './http.ts';

export interface DashboardClientOptions {
  url: string;
  /** The operator user's dashboard access key. */
  accessKey: string;
  orgId: string;
  insecureSkipVerify?: boolean;
  timeoutMs?: number;
  observe?: ManagementHttpOptions['observe'];
  callHeaders?: ManagementHttpOptions['callHeaders'];
  trace?: ManagementHttpOptions['trace'];
}

interface Created {
  Status?: string;
  Message?: string;
  Meta?: unknown;
}

export class DashboardClient implements ManagementClient {
  readonly mode = 'pro' as const;
  readonly url: string;
  readonly #http: ManagementHttp;
  readonly #orgId: string;

  constructor(options: DashboardClientOptions) {
    const { accessKey, orgId, ...rest } = options;
    this.#http = new ManagementHttp({ ...rest, what: 'dashboard', headers: { authorization: accessKey } });
    this.url = this.#http.url;
    this.#orgId = orgId;
  }

  async getApi(id: string, signal?: AbortSignal): Promise<Definition | undefined> {
    return unwrapApi(await this.#http.get(`/api/apis/${encodeURIComponent(id)}`, signal));
  }

  async listApis(signal?: AbortSignal): Promise<Definition[]> {
    const page = await this.#http.call<{ apis?: Definition[] }>('GET', '/api/apis?p=-2', undefined, signal);
    return (page?.apis ?? []).map((api) => unwrapApi(api)!);
  }

  async putApi(id: string, definition: Definition, signal?: AbortSignal): Promise<void> {
    const api_definition = { ...definition, api_id: id, org_id: this.#orgId };
    await this.#upsert(
      `/api/apis/${encodeURIComponent(id)}`,
      { api_definition },
      '/api/apis',
      { api_definition, user_owners: [], user_group_owners: [] },
      id,
      'api',
      signal,
    );
  }

  deleteApi(id: string, signal?: AbortSignal): Promise<boolean> {
    return this.#http.delete(`/api/apis/${encodeURIComponent(id)}`, signal);
  }

  getOasApi(id: string, signal?: AbortSignal): Promise<Definition | undefined> {
    return this.#http.get(`/api/apis/oas/${encodeURIComponent(id)}`, signal);
  }

  async listOasApis(signal?: AbortSignal): Promise<Definition[]> {
    const page = await this.#http.call<Definition[] | { apis?: Definition[] }>('GET', '/api/apis/oas?p=-2', undefined, signal);
    return Array.isArray(page) ? page : (page?.apis ?? []);
  }

  async putOasApi(id: string, document: Definition, signal?: AbortSignal): Promise<void> {
    await this.#upsert(`/api/apis/oas/${encodeURIComponent(id)}`, document, '/api/apis/oas', document, id, 'api', signal);
  }

  deleteOasApi(id: string, signal?: AbortSignal): Promise<boolean> {
    return this.#http.delete(`/api/apis/oas/${encodeURIComponent(id)}`, signal);
  }

  getPolicy(id: string, signal?: AbortSignal): Promise<Definition | undefined> {
    return this.#http.get(`/api/portal/policies/${encodeURIComponent(id)}`, signal);
  }

  async listPolicies(signal?: AbortSignal): Promise<Definition[]> {
    const page = await this.#http.call<{ Data?: Definition[] }>('GET', '/api/portal/policies?p=-2', undefined, signal);
    return page?.Data ?? [];
  }

  async putPolicy(id: string, policy: Definition, signal?: AbortSignal): Promise<void> {
    const body = { ...policy, id, org_id: this.#orgId };
    await this.#upsert(`/api/portal/policies/${encodeURIComponent(id)}`, body, '/api/portal/policies', body, id, 'policy', signal);
  }

  deletePolicy(id: string, signal?: AbortSignal): Promise<boolean> {
    return this.#http.delete(`/api/portal/policies/${encodeURIComponent(id)}`, signal);
  }

  waitForChange(cursor: ChangeCursor | undefined, signal?: AbortSignal): Promise<ChangeCursor | undefined> {
    return this.#http.waitForChange('/api/changes', cursor, signal);
  }

  async reload(_signal?: AbortSignal): Promise<void> {
    // The dashboard notifies its gateways of every change itself.
  }

  /** The dashboard files it under the API key's organisation (`org` is the gateway's concern only). */
  async uploadCertificate(pem: string, _org: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.#http.call<{ id: string }>('POST', '/api/certs', new PlainText(pem), signal);
    return answer!.id;
  }

  /** PUT to update; on 404 POST to create, and check the dashboard kept our id. */
  async #upsert(
    putPath: string,
    putBody: unknown,
    postPath: string,
    postBody: unknown,
    id: string,
    what: 'api' | 'policy',
    signal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      await this.#http.call('PUT', putPath, putBody, signal);
      return;
    } catch (error) {
      if (!(error instanceof MgmtError && error.kind === 'not_found')) throw error;
    }
    const created = await this.#http.call<Created>('POST', postPath, postBody, signal);
    const stored = what === 'policy' ? created?.Message : created?.Meta;
    if (typeof stored === 'string' && stored !== id) {
      // Undo: a copy under an id we do not track would never be updated or deleted.
      await this.#http.delete(what === 'policy' ? `/api/portal/policies/${encodeURIComponent(stored)}` : `${postPath}/${encodeURIComponent(stored)}`, signal);
      throw new MgmtError(
        'invalid',
        what === 'policy'
          ? `the dashboard stored the policy as ${stored}, not ${id}: set allow_explicit_policy_id (and enable_duplicate_slugs) to true in the dashboard's configuration`
          : `the dashboard stored the API as ${stored}, not ${id}`,
      );
    }
  }
}

function unwrapApi(body: Definition | undefined): Definition | undefined {
  if (!body) return undefined;
  const wrapped = body.api_definition;
  return typeof wrapped === 'object' && wrapped !== null ? (wrapped as Definition) : body;
}
