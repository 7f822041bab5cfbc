// The dashboard's classic portal API, as the portal controllers use it (licensed mode only; reference portal.md §2),
// over the management transport (mgmt/http.ts: auth header, timeouts, retries on unavailability, MgmtError kinds):
//   catalogue       GET /api/portal/catalogue (404: none yet), POST {org_id} -> Message = id, PUT the whole object
//   documentation   POST {api_id, doc_type, documentation} -> Message = doc id; GET /{id} (gw's dashboard: whether
//                   it is still there); DELETE /{id} (404: already gone)
//   configuration   GET /api/portal/configuration (404: none yet), POST -> Message = id, PUT the whole object
// There is no catalogue or configuration DELETE on the dashboard. One client per gateway handle (mode, URL,
// credentials), made on first use.
import { MgmtError, type Definition } from '../../mgmt/client.ts';
import { ManagementHttp, type ManagementHttpOptions } from '../../mgmt/http.ts';
import { reconcileHeaders, type GatewayEnv, type GatewayHandle } from '../sync/gateways.ts';

export interface PortalClient {
  getCatalogue(signal?: AbortSignal): Promise<Definition | undefined>;
  /** Creates the organisation's (empty) catalogue; answers its id. */
  createCatalogue(orgId: string, signal?: AbortSignal): Promise<string>;
  putCatalogue(catalogue: Definition, signal?: AbortSignal): Promise<void>;
  /** Stores a document; answers its id. */
  createDocumentation(doc: { api_id: string; doc_type: string; documentation: string }, signal?: AbortSignal): Promise<string>;
  /** Whether a document exists (deleted by hand on the dashboard: no). */
  hasDocumentation(id: string, signal?: AbortSignal): Promise<boolean>;
  /** Whether a document was deleted (false: it was already gone). */
  deleteDocumentation(id: string, signal?: AbortSignal): Promise<boolean>;
  getConfiguration(signal?: AbortSignal): Promise<Definition | undefined>;
  /** Creates the organisation's configuration; answers its id. */
  createConfiguration(config: Definition, signal?: AbortSignal): Promise<string>;
  putConfiguration(config: Definition, signal?: AbortSignal): Promise<void>;
}

interface Result {
  Status?: string;
  Message?: string;
}

export class DashboardPortalClient implements PortalClient {
  readonly #http: ManagementHttp;

  /** `observe`: sees every HTTP exchange (the operator's gateway request metrics). */
  constructor(env: GatewayEnv, observe?: ManagementHttpOptions['observe']) {
    this.#http = new ManagementHttp({
      url: env.url,
      what: 'dashboard',
      headers: { authorization: env.auth },
      callHeaders: reconcileHeaders,
      insecureSkipVerify: env.insecureSkipVerify,
      ...(observe ? { observe } : {}),
    });
  }

  async getCatalogue(signal?: AbortSignal): Promise<Definition | undefined> {
    const found = await this.#http.get('/api/portal/catalogue', signal);
    return found && typeof found.id === 'string' && found.id ? found : undefined;
  }

  createCatalogue(orgId: string, signal?: AbortSignal): Promise<string> {
    return this.#created('/api/portal/catalogue', { org_id: orgId }, signal);
  }

  async putCatalogue(catalogue: Definition, signal?: AbortSignal): Promise<void> {
    await this.#http.call('PUT', '/api/portal/catalogue', catalogue, signal);
  }

  createDocumentation(doc: { api_id: string; doc_type: string; documentation: string }, signal?: AbortSignal): Promise<string> {
    return this.#created('/api/portal/documentation', doc, signal);
  }

  async hasDocumentation(id: string, signal?: AbortSignal): Promise<boolean> {
    return (await this.#http.get(`/api/portal/documentation/${encodeURIComponent(id)}`, signal)) !== undefined;
  }

  deleteDocumentation(id: string, signal?: AbortSignal): Promise<boolean> {
    return this.#http.delete(`/api/portal/documentation/${encodeURIComponent(id)}`, signal);
  }

  async getConfiguration(signal?: AbortSignal): Promise<Definition | undefined> {
    const found = await this.#http.get('/api/portal/configuration', signal);
    return found && typeof found.id === 'string' && found.id ? found : undefined;
  }

  createConfiguration(config: Definition, signal?: AbortSignal): Promise<string> {
    return this.#created('/api/portal/configuration', config, signal);
  }

  async putConfiguration(config: Definition, signal?: AbortSignal): Promise<void> {
    await this.#http.call('PUT', '/api/portal/configuration', config, signal);
  }

  async #created(path: string, body: unknown, signal: AbortSignal | undefined): Promise<string> {
    const answer = await this.#http.call<Result>('POST', path, body, signal);
    if (typeof answer?.Message !== 'string' || !answer.Message) throw new MgmtError('failed', `dashboard answered POST ${path} without an id (Message)`);
    return answer.Message;
  }
}

/** One portal client per gateway handle. */
export class PortalClients {
  readonly #clients = new WeakMap<GatewayHandle, PortalClient>();
  readonly #make: (env: GatewayEnv) => PortalClient;

  constructor(make: (env: GatewayEnv) => PortalClient = (env) => new DashboardPortalClient(env)) {
    this.#make = make;
  }

  of(gateway: GatewayHandle): PortalClient {
    let client = this.#clients.get(gateway);
    if (!client) {
      client = this.#make(gateway.env);
      this.#clients.set(gateway, client);
    }
    return client;
  }
}
