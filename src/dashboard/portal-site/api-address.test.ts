// The base URL the API page shows (api-address.ts apiBaseUrl): the API's domain, else gateway_public_url, then the
// listen path ending in a slash; the path alone when neither is known.
import { describe, expect, it } from 'vitest';
import { apiBaseUrl } from './api-address.ts';

describe('apiBaseUrl', () => {
  it('joins gateway_public_url (with its own path) and the listen path', () => {
    expect(apiBaseUrl('https://api.example.test', '', '/weather')).toEqual({ url: 'https://api.example.test/weather/', absolute: true });
    expect(apiBaseUrl('https://edge.example.test:8443/gw/', '', '/weather/')).toEqual({ url: 'https://edge.example.test:8443/gw/weather/', absolute: true });
  });

  it("uses the API's domain with the gateway's scheme and port, https when unknown", () => {
    expect(apiBaseUrl('http://gw.example.test:8080', 'Weather.Example.test', '/v1')).toEqual({ url: 'http://weather.example.test:8080/v1/', absolute: true });
    expect(apiBaseUrl(undefined, 'weather.example.test', '/')).toEqual({ url: 'https://weather.example.test/', absolute: true });
  });

  it('falls back to the gateway URL for a wildcard or pattern domain, and to the path alone', () => {
    expect(apiBaseUrl('https://api.example.test', '{sub}.example.test', '/w')).toEqual({ url: 'https://api.example.test/w/', absolute: true });
    expect(apiBaseUrl(undefined, '', '/weather')).toEqual({ url: '/weather/', absolute: false });
  });
});
