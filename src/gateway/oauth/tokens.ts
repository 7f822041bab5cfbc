// Issuing and revoking OAuth access tokens, as Tyk Gateway does (oauth_manager.go): an access token is a key from
// the gateway's ordinary generator, stored as a normal key whose session is the client's policy
// (`apply_policies`), with `oauth_client_id`, `expires` (now + oauth_token_expire) and the client's meta_data; so
// access rights, rate limits and quota come from the policy through the same machinery as every key. A refresh
// token (when the API allows refresh_token and the grant is not client_credentials) is a random value stored by its
// hash for oauth_refresh_token_expire. Every issue is reported to notifications.oauth_on_keychange_url (notify.ts).
import { randomBytes } from 'node:crypto';
import type { Session } from '../../domain/session.ts';
import type { OAuthSpec } from '../definition/api-spec.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { generateKey, storageIdOf } from '../session/keys.ts';
import { notifyKeyChange } from './notify.ts';
import type { OAuthClient, OAuthRecords } from './records.ts';

/** osin's answer to a successful token request. */
export interface IssuedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token?: string;
}

export interface IssueRequest {
  apiId: string;
  orgId: string;
  client: OAuthClient;
  /** The session the token carries; default the client's policy. The password grant passes the user's key. */
  session?: Session;
  withRefresh: boolean;
  /** For the notification. */
  authCode?: string;
  oldRefreshToken?: string;
}

export async function issueToken(request: IssueRequest, oauth: OAuthSpec, records: OAuthRecords, services: PipelineServices): Promise<IssuedToken> {
  const { config } = services;
  const now = services.now();
  const token = generateKey(request.orgId);
  const storageId = storageIdOf(token, config.hash_keys);
  const base: Session = request.session ?? { apply_policies: [request.client.policy_id] };
  const session: Session = {
    ...base,
    org_id: request.orgId,
    oauth_client_id: request.client.client_id,
    expires: Math.floor(now / 1000) + config.oauth_token_expire,
    meta_data: { ...request.client.meta_data, ...base.meta_data },
    date_created: new Date(now).toISOString(),
  };
  await services.store.putKey(storageId, session, { resetCounters: true });
  services.sessions.invalidate(storageId);
  const issued: IssuedToken = { access_token: token, token_type: 'bearer', expires_in: config.oauth_token_expire };
  if (request.withRefresh) {
    const refresh = randomBytes(24).toString('base64url');
    await records.putRefresh(request.apiId, refresh, {
      client_id: request.client.client_id,
      access_storage_id: storageId,
      expires_at: now + config.oauth_refresh_token_expire * 1000,
    });
    issued.refresh_token = refresh;
  }
  if (oauth.notifications) {
    notifyKeyChange(oauth.notifications, services, {
      auth_code: request.authCode ?? '',
      new_oauth_token: token,
      refresh_token: issued.refresh_token ?? '',
      old_refresh_token: request.oldRefreshToken ?? '',
      notification_type: request.oldRefreshToken ? 'refresh' : 'new',
    });
  }
  return issued;
}

/** Deletes an access token's key (and forgets it in this gateway's cache); false when there was none. */
export async function revokeAccessToken(token: string, services: PipelineServices): Promise<boolean> {
  const storageId = storageIdOf(token, services.config.hash_keys);
  const deleted = await revokeStoredAccess(storageId, services);
  return deleted;
}

export async function revokeStoredAccess(storageId: string, services: PipelineServices): Promise<boolean> {
  const deleted = await services.store.deleteKey(storageId);
  await services.store.resetCounters(storageId);
  services.sessions.invalidate(storageId);
  return deleted;
}
