// Where an organisation's portal is reached from outside a request (site.ts portalOrigin and portalBase): its own
// domain when it has one, unless portal_public_url names that domain; otherwise portal_public_url or nothing.
import { describe, expect, it } from 'vitest';
import { portalBase, portalOrigin } from './site.ts';

const plain = { id: 'org 1', cname: '' };
const branded = { id: 'org2', cname: 'Developers.Acme.test' };

describe('portal address', () => {
  it('puts an organisation without a domain under the dashboard: portal_public_url, else the caller’s own origin', () => {
    expect(portalOrigin({}, plain)).toBeUndefined();
    expect(portalOrigin({ portal_public_url: 'https://dash.example.com//' }, plain)).toBe('https://dash.example.com');
    expect(portalBase(plain)).toBe('/portal/org%201/');
  });

  it('puts an organisation with a domain at that domain, keeping portal_public_url only when it names that domain', () => {
    expect(portalOrigin({}, branded)).toBe('https://Developers.Acme.test');
    expect(portalOrigin({ portal_public_url: 'https://dash.example.com' }, branded)).toBe('https://Developers.Acme.test');
    expect(portalOrigin({ portal_public_url: 'http://developers.acme.test:8080/' }, branded)).toBe('http://developers.acme.test:8080');
    expect(portalBase(branded)).toBe('/portal/');
  });
});
