// The GraphQL playground (graphql.playground {enabled, path}) through a real gateway process: the page, its script
// and style sheet are served from the gateway at `{listen_path}{path}` with a Content-Security-Policy, before
// authentication; in a real browser (Debian's Chromium) the page runs under that policy and a query typed into it,
// with a key typed as a header, reaches the real GraphQL upstream through the API's pipeline and the answer is
// shown. Disabled, the path is an ordinary request of the API; a path with a dot-segment is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { launchBrowser } from '../../support/browser.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const SDL = 'type Query { hello: String }';
const graphqlApi = (id: string, playground: Record<string, unknown> | undefined, url: string) =>
  classicApi(id, `/${id}`, url, { graphql: { enabled: true, execution_mode: 'proxyOnly', schema: SDL, ...(playground ? { playground } : {}) } });

describe('GraphQL playground', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;

  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { hello: 'from the upstream' } }));
      return true;
    });
    gw = await startGateway();
    for (const api of [
      graphqlApi('gql', { enabled: true, path: '/playground' }, upstream.url),
      graphqlApi('gql-off', { enabled: false, path: '/playground' }, upstream.url),
    ]) {
      const created = await gw.admin('POST', '/gw/apis', api);
      expect(created.status, created.text).toBe(200);
    }
    await gw.reload();
    key = await addKey(gw, ['gql']);
  });

  it('serves the page, its script and style sheet from the gateway, with a CSP, before authentication', async () => {
    const page = await gw.call('/gql/playground');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.text).toContain('data-endpoint="/gql"');
    expect(page.text).toContain('<script src="/gql/playground/playground.js" defer></script>');
    expect(page.text).not.toMatch(/https?:\/\//);
    const script = await gw.call('/gql/playground/playground.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await gw.call('/gql/playground/playground.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect(upstream.requests).toHaveLength(0);
  });

  it('runs a query typed into the page in a real browser, under its CSP, through the API with the key typed as a header', async () => {
    const browser = await launchBrowser();
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await page.goto(`${gw.url}/gql/playground`);
    await page.fill('#query', '{ hello }');
    await page.fill('#headers', JSON.stringify({ Authorization: key }));
    await page.click('#run');
    await page.locator('#status', { hasText: /^200/ }).waitFor(); // a locator, not a string predicate: the page's CSP forbids eval
    expect(JSON.parse((await page.textContent('#response')) ?? '')).toEqual({ data: { hello: 'from the upstream' } });
    expect(JSON.parse(upstream.requests.at(-1)!.body)).toEqual({ query: '{ hello }', variables: {} });
    await page.fill('#headers', '{}');
    await page.click('#run');
    await page.locator('#status', { hasText: /^401/ }).waitFor(); // a locator, not a string predicate: the page's CSP forbids eval
    expect(violations).toEqual([expect.stringContaining('401')]); // the refused request, and no CSP violation
  });

  it('treats the path as an ordinary request of the API when the playground is disabled', async () => {
    const reply = await gw.call('/gql-off/playground');
    expect(reply.status).toBe(401);
  });

  it('refuses a playground path with a dot-segment, naming the field', async () => {
    const refused = await gw.admin('POST', '/gw/apis', graphqlApi('gql-bad', { enabled: true, path: '/../admin' }, upstream.url));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('graphql.playground.path');
  });
});
