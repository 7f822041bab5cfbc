// The session cookie read from a Cookie header and written into Set-Cookie.
import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from './cookie.ts';

describe('session cookie', () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE';

  it('finds the token among other cookies, and nothing in a malformed or missing one', () => {
    expect(sessionTokenOf(`theme=dark; gw_session=${token}; other=1`)).toBe(token);
    expect(sessionTokenOf(`gw_session_old=${token}`)).toBeUndefined();
    expect(sessionTokenOf('gw_session=short')).toBeUndefined();
    expect(sessionTokenOf(`gw_session=${token}"; x=1`)).toBeUndefined();
    expect(sessionTokenOf(undefined)).toBeUndefined();
  });

  it('sets it HttpOnly and SameSite=Strict for the whole site, Secure when asked, and clears it', () => {
    expect(sessionCookie(token, { secure: false, maxAgeSeconds: 60 })).toBe(`gw_session=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=60`);
    expect(sessionCookie(token, { secure: true, maxAgeSeconds: 60 })).toBe(`gw_session=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=60; Secure`);
    expect(clearedSessionCookie(false)).toBe('gw_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  it("takes another name and path (the developer portal's cookie, scoped to one organisation's portal)", () => {
    expect(sessionCookie(token, { secure: false, maxAgeSeconds: 60, name: 'gw_portal_session', path: '/portal/org1/' })).toBe(
      `gw_portal_session=${token}; Path=/portal/org1/; HttpOnly; SameSite=Strict; Max-Age=60`,
    );
    expect(clearedSessionCookie(true, { name: 'gw_portal_session', path: '/portal/org1/' })).toBe(
      'gw_portal_session=; Path=/portal/org1/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    );
    expect(sessionTokenOf(`gw_session=${token}x; gw_portal_session=${token}`, 'gw_portal_session')).toBe(token);
    expect(sessionTokenOf(`gw_session=${token}`, 'gw_portal_session')).toBeUndefined();
  });
});
