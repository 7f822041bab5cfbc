// The management client of the open-source gateway (ce mode): /gw/ with header x-gw-authorization.
// Writes are POSTs with the id (the gateway upserts); deletes treat 404 as "nothing to delete"; reload asks the
// whole gateway group (/gw/reload/group, answered once this gateway reloaded) and loadProblems reads what that
// load could not serve (/gw/load-problems); the change feed is /gw/changes. Transport, retries and error kinds: http.ts.
import type { ApiLoadProblem, ChangeCursor, Definition, ManagementClient } from './client.ts';
import { ManagementHttp, PlainText, type ManagementHttpOptions } from './http.ts';

export interface GatewayClientOptions {
  url: string;
  secret: string;
  insecureSkipVerify?: boolean;
  timeoutMs?: number;
  observe?: ManagementHttpOptions['observe'];
  callHeaders?: ManagementHttpOptions['callHeaders'];
  trace?: ManagementHttpOptions['trace'];
}

export class GatewayClient implements ManagementClient {
  readonly mode = 'ce' as const;
  readonly url: string;
  readonly #http: ManagementHttp;

  constructor(options: GatewayClientOptions) {
    const { secret, ...rest } = options;
    this.#http = new ManagementHttp({ ...rest, what: 'gateway', headers: { 'x-gw-authorization': secret } });
    this.url = this.#http.url;
  }

  getApi(id: string, signal?: AbortSignal): Promise<Definition | undefined> {
    return this.#http.get(`/gw/apis/${encodeURIComponent(id)}`, signal);
  }

  async listApis(signal?: AbortSignal): Promise<Definition[]> {
    return (await this.#http.call<Definition[]>('GET', '/gw/apis', undefined, signal)) ?? [];
  }

  async putApi(id: string, definition: Definition, signal?: AbortSignal): Promise<void> {
    await this.#http.call('POST', '/gw/apis', { ...definition, api_id: id }, signal);
  }

  deleteApi(id: string, signal?: AbortSignal): Promise<boolean> {
    return this.#http.delete(`/gw/apis/${encodeURIComponent(id)}`, signal);
  }

  getOasApi(id: string, signal?: AbortSignal): Promise<Definition | undefined> {
    return this.#http.get(`/gw/apis/oas/${encodeURIComponent(id)}`, signal);
  }

  async listOasApis(signal?: AbortSignal): Promise<Definition[]> {
    return (await this.#http.call<Definition[]>('GET', '/gw/apis/oas', undefined, signal)) ?? [];
  }

  async putOasApi(_id: string, document: Definition, signal?: AbortSignal): Promise<void> {
    await this.#http.call('POST', '/gw/apis/oas', document, signal);
  }

  deleteOasApi(id: string, signal?: AbortSignal): Promise<boolean> {
    return this.#http.delete(`/gw/apis/oas/${encodeURIComponent(id)}`, signal);
  }

  getPolicy(id: string, signal?: AbortSignal): Promise<Definition | undefined> {
    return this.#http.get(`/gw/policies/${encodeURIComponent(id)}`, signal);
  }

  async listPolicies(signal?: AbortSignal): Promise<Definition[]> {
    return (await this.#http.call<Definition[]>('GET', '/gw/policies', undefined, signal)) ?? [];
  }

  async putPolicy(id: string, policy: Definition, signal?: AbortSignal): Promise<void> {
    await this.#http.call('POST', `/gw/policies/${encodeURIComponent(id)}`, { ...policy, id }, signal);
  }

  deletePolicy(id: string, signal?: AbortSignal): Promise<boolean> {
    return this.#http.delete(`/gw/policies/${encodeURIComponent(id)}`, signal);
  }

  waitForChange(cursor: ChangeCursor | undefined, signal?: AbortSignal): Promise<ChangeCursor | undefined> {
    return this.#http.waitForChange('/gw/changes', cursor, signal);
  }

  async reload(signal?: AbortSignal): Promise<void> {
    // block: answered once this gateway's own reload serves, so that loadProblems() reads that load's report.
    await this.#http.call('GET', '/gw/reload/group?block=true', undefined, signal);
  }

  async loadProblems(signal?: AbortSignal): Promise<ApiLoadProblem[]> {
    const report = await this.#http.call<{ problems?: { id?: unknown; reason?: unknown; message?: unknown; conflicts_with?: unknown }[] }>(
      'GET',
      '/gw/load-problems',
      undefined,
      signal,
    );
    // Only problems about one API with a reason concern a writer (a shadowed file or a broken policy file do not).
    return (report?.problems ?? []).flatMap((p) =>
      typeof p.id === 'string' && typeof p.reason === 'string'
        ? [
            {
              id: p.id,
              reason: p.reason,
              message: typeof p.message === 'string' ? p.message : '',
              conflictsWith: typeof p.conflicts_with === 'string' ? p.conflicts_with : undefined,
            },
          ]
        : [],
    );
  }

  async uploadCertificate(pem: string, org: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.#http.call<{ id: string }>('POST', `/gw/certs?org_id=${encodeURIComponent(org)}`, new PlainText(pem), signal);
    return answer!.id;
  }
}
