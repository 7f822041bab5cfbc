// requestContext: one request, one set of context variables. Every step that renders variables (header transforms,
// URL rewrites, body templates, in either phase) gets the same object, so they agree on request_id; it was rebuilt
// per call, handing each step a different request_id.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ProxyContext } from '../../pipeline/contract.ts';
import { requestContext } from './render-variables.ts';

function fakeContext(): ProxyContext {
  const req = { rawHeaders: ['X-Tier', 'gold'], headers: { host: 'api.test' }, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
  return { req, path: '/a/b', query: '?q=1', variables: { jwt_claims_sub: 'alice' } } as unknown as ProxyContext;
}

describe('requestContext', () => {
  it('builds the context variables once per request: every caller sees the same request_id', () => {
    const ctx = fakeContext();
    const first = requestContext(ctx);
    const second = requestContext(ctx);
    expect(second.request_id).toBe(first.request_id);
    expect(first).toMatchObject({ headers_X_Tier: 'gold', path_parts: ['', 'a', 'b'], request_data_q: '1', jwt_claims_sub: 'alice' });
  });

  it('gives another request its own variables', () => {
    expect(requestContext(fakeContext()).request_id).not.toBe(requestContext(fakeContext()).request_id);
  });
});
