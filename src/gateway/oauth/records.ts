// What the OAuth 2.0 authorization server keeps (use_oauth2 APIs), in the store's key space beside the keys, so
// both backends hold it and every gateway of a group sees it: clients (Tyk's /tyk/oauth/clients shape), pending
// authorization codes and refresh tokens. Stored under `org/:oauth/...`: inside the organisation sessions' space,
// which no client credential can name (session/keys.ts) and the key management API refuses, and with a `:` no
// organisation id has. Codes and refresh tokens are stored by their SHA-256, never in clear; each is spent by
// deleting it (the store's delete answers whether it was there), so two exchanges of one code cannot both win.
// Issued access tokens are ordinary keys (session/keys.ts) carrying the client's policy and oauth_client_id.
import type { Session } from '../../domain/session.ts';
import { hashKey } from '../session/keys.ts';
import type { Store } from '../store/store.ts';

const PREFIX = 'org/:oauth/';

/** A client as Tyk's client API has it. `secret` is kept to be answered back (Tyk does) and compared in constant time. */
export interface OAuthClient {
  client_id: string;
  secret: string;
  redirect_uri: string;
  api_id: string;
  policy_id: string;
  meta_data: Record<string, unknown>;
  description: string;
}

/** A code handed out by authorize-client, until exchanged or expired. */
export interface PendingCode {
  client_id: string;
  redirect_uri: string;
  /** Unix milliseconds. */
  expires_at: number;
  /** PKCE (RFC 7636), when the authorization request carried one. */
  code_challenge?: string;
  code_challenge_method?: 'plain' | 'S256';
}

/** A refresh token, until used, revoked or expired. */
export interface PendingRefresh {
  client_id: string;
  /** The storage id of the access token issued with it (revoked when it is used). */
  access_storage_id: string;
  expires_at: number;
}

export function isOAuthRecordId(storageId: string): boolean {
  return storageId.startsWith(PREFIX);
}

const clientId = (apiId: string, id: string): string => `${PREFIX}client/${apiId}/${id}`;
const codeId = (apiId: string, code: string): string => `${PREFIX}code/${apiId}/${hashKey(code)}`;
const refreshId = (apiId: string, token: string): string => `${PREFIX}refresh/${apiId}/${hashKey(token)}`;

/** Records ride in a key's meta_data: the store's contract holds sessions, nothing else. */
const wrap = (record: object): Session => ({ meta_data: { oauth_record: record } });
const unwrap = <T>(session: Session | undefined): T | undefined => (session?.meta_data?.oauth_record as T | undefined) ?? undefined;

export class OAuthRecords {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  async getClient(apiId: string, id: string): Promise<OAuthClient | undefined> {
    return unwrap<OAuthClient>(await this.#store.getKey(clientId(apiId, id)));
  }

  async putClient(client: OAuthClient): Promise<void> {
    await this.#store.putKey(clientId(client.api_id, client.client_id), wrap(client));
  }

  async deleteClient(apiId: string, id: string): Promise<boolean> {
    return this.#store.deleteKey(clientId(apiId, id));
  }

  async listClients(apiId: string): Promise<OAuthClient[]> {
    const prefix = clientId(apiId, '');
    const ids = (await this.#store.listKeys()).filter((id) => id.startsWith(prefix));
    const clients = await Promise.all(ids.map(async (id) => unwrap<OAuthClient>(await this.#store.getKey(id))));
    return clients.filter((client) => client !== undefined);
  }

  /**
   * Deletes what has lapsed: access tokens (keys with an oauth_client_id) past their expiry, and codes and refresh
   * tokens past theirs (`forget` drops each from caches). Reads every key once: for the management API, never the
   * request path. Returns how many.
   */
  async purgeLapsed(nowMs: number, forget: (storageId: string) => void): Promise<number> {
    let purged = 0;
    for (const id of await this.#store.listKeys()) {
      const session = await this.#store.getKey(id);
      if (!session) continue;
      const record = isOAuthRecordId(id) ? unwrap<{ expires_at?: number }>(session) : undefined;
      const lapsed = record
        ? record.expires_at !== undefined && record.expires_at <= nowMs
        : session.oauth_client_id !== undefined && session.expires !== undefined && session.expires > 0 && session.expires * 1000 <= nowMs;
      if (lapsed && (await this.#store.deleteKey(id))) {
        if (!record) await this.#store.resetCounters(id);
        forget(id);
        purged++;
      }
    }
    return purged;
  }

  async putCode(apiId: string, code: string, pending: PendingCode): Promise<void> {
    await this.#store.putKey(codeId(apiId, code), wrap(pending));
  }

  /** The code's record, deleted in the same step: undefined when unknown or already spent. */
  async takeCode(apiId: string, code: string): Promise<PendingCode | undefined> {
    const id = codeId(apiId, code);
    const pending = unwrap<PendingCode>(await this.#store.getKey(id));
    if (!pending || !(await this.#store.deleteKey(id))) return undefined;
    return pending;
  }

  async putRefresh(apiId: string, token: string, pending: PendingRefresh): Promise<void> {
    await this.#store.putKey(refreshId(apiId, token), wrap(pending));
  }

  async peekRefresh(apiId: string, token: string): Promise<PendingRefresh | undefined> {
    return unwrap<PendingRefresh>(await this.#store.getKey(refreshId(apiId, token)));
  }

  /** False when it was already used or revoked. */
  async deleteRefresh(apiId: string, token: string): Promise<boolean> {
    return this.#store.deleteKey(refreshId(apiId, token));
  }
}
