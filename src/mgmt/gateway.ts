// The management client of the open-source gateway (ce mode): /gw/ with header x-gw-authorization.
// Writes are POSTs with the id (the gateway upserts); deletes treat 404 as "nothing to delete"; reload asks the
// whole gateway group (/gw/reload/group). Transport, retries and error kinds: http.ts.
import type { Definition, ManagementClient } from './client.ts';
import { ManagementHttp, type ManagementHttpOptions } from './http.ts';

export interface GatewayClientOptions {
  url: string;
  secret: string;
  insecureSkipVerify?: boolean;
  timeoutMs?: number;
  observe?: ManagementHttpOptions['observe'];
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

  getApi(id: string): Promise<Definition | undefined> {
    return this.#http.get(`/gw/apis/${encodeURIComponent(id)}`);
  }

  async listApis(): Promise<Definition[]> {
    return (await this.#http.call<Definition[]>('GET', '/gw/apis')) ?? [];
  }

  async putApi(id: string, definition: Definition): Promise<void> {
    await this.#http.call('POST', '/gw/apis', { ...definition, api_id: id });
  }

  deleteApi(id: string): Promise<boolean> {
    return this.#http.delete(`/gw/apis/${encodeURIComponent(id)}`);
  }

  getOasApi(id: string): Promise<Definition | undefined> {
    return this.#http.get(`/gw/apis/oas/${encodeURIComponent(id)}`);
  }

  async listOasApis(): Promise<Definition[]> {
    return (await this.#http.call<Definition[]>('GET', '/gw/apis/oas')) ?? [];
  }

  async putOasApi(_id: string, document: Definition): Promise<void> {
    await this.#http.call('POST', '/gw/apis/oas', document);
  }

  deleteOasApi(id: string): Promise<boolean> {
    return this.#http.delete(`/gw/apis/oas/${encodeURIComponent(id)}`);
  }

  getPolicy(id: string): Promise<Definition | undefined> {
    return this.#http.get(`/gw/policies/${encodeURIComponent(id)}`);
  }

  async listPolicies(): Promise<Definition[]> {
    return (await this.#http.call<Definition[]>('GET', '/gw/policies')) ?? [];
  }

  async putPolicy(id: string, policy: Definition): Promise<void> {
    await this.#http.call('POST', `/gw/policies/${encodeURIComponent(id)}`, { ...policy, id });
  }

  deletePolicy(id: string): Promise<boolean> {
    return this.#http.delete(`/gw/policies/${encodeURIComponent(id)}`);
  }

  async reload(): Promise<void> {
    await this.#http.call('GET', '/gw/reload/group');
  }
}
