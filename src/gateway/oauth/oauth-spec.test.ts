// How a Classic definition's use_oauth2, oauth_meta and notifications compile (definition/from-classic.ts): OAuth
// alone adds no token check (Tyk adds it only with use_standard_auth when another mode is on); keyless wins; the
// key-change notification only with a URL. And the records' storage ids stay inside the space no credential names.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../domain/session.ts';
import { compileApi, parseClassic, parseOas } from '../definition/compile.ts';
import { isOrganisationSessionId } from '../session/keys.ts';
import type { Store } from '../store/store.ts';
import { OAuthRecords } from './records.ts';

const compile = (extra: Record<string, unknown>) =>
  compileApi({
    id: 'a',
    format: 'classic',
    definition: parseClassic({ name: 'a', api_id: 'a', proxy: { listen_path: '/a/', target_url: 'http://127.0.0.1:9' }, ...extra }),
  });

describe('use_oauth2 compiled', () => {
  it('is the only authentication of an API without use_standard_auth, with oauth_meta and notifications', () => {
    const spec = compile({
      use_oauth2: true,
      oauth_meta: { allowed_access_types: ['client_credentials', 'refresh_token'], allowed_authorize_types: ['code'], auth_login_redirect: 'http://login/' },
      notifications: { shared_secret: 's', oauth_on_keychange_url: 'http://hook/' },
    });
    expect(spec.auth.kind).toBe('none');
    expect(spec.oauth).toEqual({
      allowedAccessTypes: ['client_credentials', 'refresh_token'],
      allowedAuthorizeTypes: ['code'],
      authLoginRedirect: 'http://login/',
      notifications: { url: 'http://hook/', sharedSecret: 's' },
    });
  });

  it('keeps the token check with use_standard_auth, sends no notification without a URL, and is off for keyless APIs', () => {
    const both = compile({ use_oauth2: true, use_standard_auth: true, notifications: { shared_secret: 's' } });
    expect([both.auth.kind, both.oauth]).toEqual(['token', { allowedAccessTypes: [], allowedAuthorizeTypes: [], authLoginRedirect: '' }]);
    expect(compile({ use_oauth2: true, use_keyless: true }).oauth).toBeUndefined();
    expect(compile({ use_oauth2: false }).oauth).toBeUndefined();
  });

  it("accepts Tyk's base_identity_provided_by: oauth_key (the OAuth token's session is the request's)", () => {
    const spec = compile({ use_oauth2: true, use_basic_auth: true, base_identity_provided_by: 'oauth_key' });
    expect([spec.baseIdentity, spec.basic !== undefined, spec.oauth !== undefined]).toEqual(['oauth_key', true, true]);
  });

  it('refuses an access type Tyk does not have, naming the field', () => {
    expect(() => compile({ use_oauth2: true, oauth_meta: { allowed_access_types: ['implicit'] } })).toThrow(/oauth_meta\.allowed_access_types/);
  });
});

describe("an OAS API's oauth2 scheme", () => {
  it("compiles Tyk's OAuth settings, the grants from the scheme's flows", () => {
    const spec = compileApi({
      id: 'o',
      format: 'oas',
      definition: parseOas({
        openapi: '3.0.3',
        info: { title: 'o', version: '1' },
        paths: {},
        components: { securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } } } } },
        'x-gw-api-gateway': {
          info: { name: 'o', state: { active: true } },
          upstream: { url: 'http://127.0.0.1:9' },
          server: {
            listenPath: { value: '/o/' },
            authentication: {
              enabled: true,
              securitySchemes: {
                oauth: {
                  enabled: true,
                  refreshToken: true,
                  allowedAuthorizeTypes: ['code'],
                  notifications: { onKeyChangeUrl: 'http://hook/', sharedSecret: 's' },
                },
              },
            },
          },
        },
      }),
    });
    expect([spec.auth.kind, spec.oauth]).toEqual([
      'none',
      {
        allowedAccessTypes: ['client_credentials', 'refresh_token'],
        allowedAuthorizeTypes: ['code'],
        authLoginRedirect: '',
        notifications: { url: 'http://hook/', sharedSecret: 's' },
      },
    ]);
  });
});

describe('OAuthRecords', () => {
  it('stores clients, codes and refresh tokens under ids no client credential can name, codes and refresh tokens by hash', async () => {
    const written = new Map<string, Session>();
    const store = {
      putKey: (id: string, session: Session) => Promise.resolve(void written.set(id, session)),
      getKey: (id: string) => Promise.resolve(written.get(id)),
      deleteKey: (id: string) => Promise.resolve(written.delete(id)),
    } as unknown as Store;
    const records = new OAuthRecords(store);
    await records.putClient({ client_id: 'c', secret: 's', redirect_uri: '', api_id: 'a', policy_id: 'p', meta_data: {}, description: '' });
    await records.putCode('a', 'the-code', { client_id: 'c', redirect_uri: '', expires_at: 1 });
    await records.putRefresh('a', 'the-refresh', { client_id: 'c', access_storage_id: 'x', expires_at: 1 });
    const ids = [...written.keys()];
    expect(ids.every(isOrganisationSessionId)).toBe(true);
    expect(ids.some((id) => id.includes('the-code') || id.includes('the-refresh'))).toBe(false);
    expect(await records.takeCode('a', 'the-code')).toEqual({ client_id: 'c', redirect_uri: '', expires_at: 1 });
    expect(await records.takeCode('a', 'the-code')).toBeUndefined();
  });
});
