// An OAS API with authentication enabled but no security scheme: Tyk Gateway serves it with its fallback, the
// standard auth token in the Authorization header; gw did the same only for Classic and refused the OAS API whole.
import { describe, expect, it } from 'vitest';
import { compileApi, parseOas } from './compile.ts';

const oas = (authentication: Record<string, unknown>) => ({
  openapi: '3.0.3',
  info: { title: 'fallback', version: '1' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id: 'fallback', name: 'fallback', state: { active: true } },
    upstream: { url: 'http://127.0.0.1:9' },
    server: { listenPath: { value: '/fallback', strip: true }, authentication },
  },
});

describe('OAS authentication without a scheme', () => {
  it('is served with the auth token in the Authorization header, as Tyk Gateway does', () => {
    const spec = compileApi({ id: 'fallback', format: 'oas', definition: parseOas(oas({ enabled: true })) });
    expect(spec.auth).toEqual({ kind: 'token', headerName: 'Authorization', readHeader: true });
    const empty = compileApi({ id: 'fallback', format: 'oas', definition: parseOas(oas({ enabled: true, securitySchemes: {} })) });
    expect(empty.auth.kind).toBe('token');
  });

  it('stays keyless when authentication is not enabled', () => {
    expect(compileApi({ id: 'fallback', format: 'oas', definition: parseOas(oas({ enabled: false })) }).auth.kind).toBe('keyless');
  });
});
