// The developer portal's content on a real `gw dashboard` on a real PostgreSQL (issue 28 item 7): pages and menus
// through Tyk's /api/portal/pages and /api/portal/menus, served by the portal (a live page at its slug, the
// homepage at the root, Markdown never raw HTML, the Main menu in the navigation, also on an organisation's own
// domain), the portal's name, the custom CSS of /api/portal/css served as the portal's stylesheet (text/css,
// ETag, 304, @import refused), and developers who sign up under require_developer_approval: told to wait (only
// with the right password), approved by an administrator (e-mailed over SMTP), then signed in. One dashboard for
// every case; each organisation is another's stranger.
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrg, matching, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { useDatabases } from '../../support/postgres.ts';
import { mailBody, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

describe('portal pages, menus, name, custom CSS and developer approval', () => {
  const databases = useDatabases('postgres');
  let dashboard: RunningDashboard;
  let smtp: TestSmtpServer;
  let org: TestOrg;
  let stranger: TestOrg;
  let domainOrg: TestOrg;

  const get = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await request(`${dashboard.url}${path}`, { headers });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
  const postForm = async (path: string, fields: Record<string, string>): Promise<Answer> => {
    const response = await request(`${dashboard.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: dashboard.url },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
  const ok = async (call: Promise<{ status: number; text: string; json<T>(): T }>): Promise<string> => {
    const answer = await call;
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ Message: string }>().Message;
  };
  const portal = (path = ''): string => `/portal/${org.id}/${path}`;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    dashboard = await startDashboard({
      ...databases.config(),
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_starttls: 'off',
      smtp_from: 'portal@example.test',
    });
    [org, stranger, domainOrg] = await Promise.all([createOrg(dashboard, 'Acme'), createOrg(dashboard, 'Stranger'), createOrg(dashboard, 'Domain')]);
    const domain = await dashboard.admin('PUT', `/admin/organisations/${domainOrg.id}`, { cname: 'developers.domain.test' });
    expect(domain.status, domain.text).toBe(200);
  });

  it("keeps pages with Tyk's fields: created, listed, read, updated and deleted; slugs unique per organisation, one homepage", async () => {
    const id = await ok(org.call('POST', '/api/portal/pages', { title: 'About', slug: 'about', fields: { PageContent: 'Hello' } }));
    const listed = await org.call('GET', '/api/portal/pages');
    expect(listed.json()).toEqual({
      Data: [
        {
          id,
          org_id: org.id,
          title: 'About',
          slug: 'about',
          template_name: '',
          fields: { PageContent: 'Hello' },
          is_homepage: false,
          is_live: true,
          page_settings: {},
          date_created: matching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
      Pages: 1,
    });
    const taken = await org.call('POST', '/api/portal/pages', { title: 'Other', slug: 'ABOUT' });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('slug');
    const reserved = await org.call('POST', '/api/portal/pages', { title: 'Other', slug: 'login' });
    expect(reserved.status).toBe(400);
    expect(reserved.text).toContain('slug');
    // Another organisation may use the slug, and sees nothing of this one's pages.
    await ok(stranger.call('POST', '/api/portal/pages', { title: 'Theirs', slug: 'about' }));
    expect((await stranger.call('GET', `/api/portal/pages/${id}`)).status).toBe(404);
    expect((await stranger.call('PUT', `/api/portal/pages/${id}`, { title: 'x', slug: 'x' })).status).toBe(404);
    expect((await stranger.call('DELETE', `/api/portal/pages/${id}`)).status).toBe(404);

    const first = await ok(org.call('POST', '/api/portal/pages', { title: 'Home 1', slug: '/', is_homepage: true }));
    const second = await ok(org.call('POST', '/api/portal/pages', { title: 'Home 2', slug: 'home', is_homepage: true }));
    expect((await org.call('GET', `/api/portal/pages/${first}`)).json()).toMatchObject({ is_homepage: false, slug: '' });
    expect((await org.call('GET', `/api/portal/pages/${second}`)).json()).toMatchObject({ is_homepage: true });
    expect(await ok(org.call('PUT', `/api/portal/pages/${id}`, { title: 'About us', slug: 'about', fields: { PageContent: 'Hi' } }))).toBe('Data updated');
    expect((await org.call('GET', `/api/portal/pages/${id}`)).json()).toMatchObject({ title: 'About us', fields: { PageContent: 'Hi' } });
    expect(await ok(org.call('DELETE', `/api/portal/pages/${first}`))).toBe('Data deleted');
    expect(await ok(org.call('DELETE', `/api/portal/pages/${second}`))).toBe('Data deleted');
  });

  it('serves a live page at its slug as Markdown, hides one not live, and shows the homepage at the root', async () => {
    expect((await get(portal())).status).toBe(303);
    const body = '## Terms\n\n<script>window.x = 1</script> Use **fairly**.';
    const terms = await ok(org.call('POST', '/api/portal/pages', { title: 'Terms', slug: 'terms', fields: { PageContent: body } }));
    const page = await get(portal('terms/'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Terms</h1>');
    expect(page.text).toContain('<strong>fairly</strong>');
    expect(page.text).toContain('&lt;script&gt;window.x = 1&lt;/script&gt;');
    expect(page.text).not.toContain('<script>window.x');
    expect((await get(portal('Terms/'))).status).toBe(200);
    expect((await get(`/portal/${stranger.id}/terms/`)).status).toBe(404);

    await ok(org.call('PUT', `/api/portal/pages/${terms}`, { title: 'Terms', slug: 'terms', is_live: false }));
    expect((await get(portal('terms/'))).status).toBe(404);

    await ok(org.call('POST', '/api/portal/pages', { title: 'Welcome', slug: 'welcome', is_homepage: true, fields: { SubHeading: 'Our APIs' } }));
    const home = await get(portal());
    expect(home.status).toBe(200);
    expect(home.text).toContain('<p class="lead">Our APIs</p>');
  });

  it('shows the Main menu in the navigation (current page marked) and the portal name in the header and title', async () => {
    expect((await org.call('GET', '/api/portal/menus')).json()).toEqual({ id: '', org_id: org.id, menus: {}, is_active: true });
    const menus = {
      Main: [
        { Title: 'Welcome', URL: 'welcome/' },
        { Title: 'Status', URL: 'https://status.example.test/' },
      ],
    };
    const id = await ok(org.call('PUT', '/api/portal/menus', { menus }));
    expect((await org.call('GET', '/api/portal/menus')).json()).toEqual({ id, org_id: org.id, menus, is_active: true });
    expect((await org.call('PUT', '/api/portal/menus', { menus: { Main: [{ Title: 'x', URL: 'javascript:alert(1)' }] } })).status).toBe(400);
    await ok(org.call('PUT', '/api/portal/configuration', { portal_name: 'Acme APIs' }));

    const page = await get(portal('welcome/'));
    expect(page.text).toContain(`<li><a href="/portal/${org.id}/welcome/" aria-current="page">Welcome</a></li>`);
    expect(page.text).toContain('<li><a href="https://status.example.test/">Status</a></li>');
    expect(page.text).toContain('<title>Welcome · Acme APIs</title>');
    expect(page.text).toContain(`<a class="brand" href="/portal/${org.id}/">Acme APIs</a>`);
    // Inactive menus are not shown; another organisation's portal never shows these.
    expect((await get(`/portal/${stranger.id}/apis/`)).text).not.toContain('status.example.test');
    await ok(org.call('PUT', '/api/portal/menus', { menus, is_active: false }));
    expect((await get(portal('apis/'))).text).not.toContain('status.example.test');
  });

  it("serves a page on the organisation's own domain at /portal/<slug>/, and that organisation's root there", async () => {
    expect((await domainOrg.call('POST', '/api/portal/pages', { title: 'Pricing', slug: 'pricing', fields: { PageContent: 'Free.' } })).status).toBe(200);
    const host = { host: 'developers.domain.test' };
    const page = await get('/portal/pricing/', host);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('<h1>Pricing</h1>');
    expect((await get('/portal/', host)).status).toBe(303);
    expect((await get(`/portal/${domainOrg.id}/pricing/`)).status).toBe(404);
    // Without the domain, /portal/<org id>/ is still that organisation's root.
    expect((await get(portal())).status).toBe(200);
  });

  it('serves the custom CSS as the portal stylesheet: text/css, linked by its version, validated by ETag; @import refused', async () => {
    expect((await get(portal('custom.css'))).status).toBe(404);
    expect((await get(portal('apis/'))).text).not.toContain('custom.css');
    const refused = await org.call('PUT', '/api/portal/css', { page_css: '@import url(https://evil.test/x.css);' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('page_css');
    const css = 'header.site { background: rgb(1, 2, 3); }';
    const id = await ok(org.call('PUT', '/api/portal/css', { page_css: css }));
    expect((await org.call('GET', '/api/portal/css')).json()).toEqual({ id, org_id: org.id, page_css: css, email_css: '' });

    const link = /<link rel="stylesheet" href="([^"]*custom\.css\?v=[0-9a-f]+)">/.exec((await get(portal('apis/'))).text)?.[1];
    expect(link).toMatch(new RegExp(`^/portal/${org.id}/custom\\.css\\?v=`));
    const sheet = await get(link!);
    expect(sheet.status).toBe(200);
    expect(sheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(sheet.headers['x-content-type-options']).toBe('nosniff');
    expect(sheet.text).toBe(css);
    const etag = String(sheet.headers.etag);
    expect((await get(link!, { 'if-none-match': etag })).status).toBe(304);
    await ok(org.call('PUT', '/api/portal/css', { page_css: `${css} main { color: red; }` }));
    expect((await get(link!, { 'if-none-match': etag })).status).toBe(200);
    expect((await get(`/portal/${stranger.id}/custom.css`)).status).toBe(404);
  });

  it('keeps a developer who signs up under require_developer_approval waiting, without keys, until an administrator approves them', async () => {
    await ok(org.call('PUT', '/api/portal/configuration', { require_developer_approval: true }));
    const email = 'waiting@dev.test';
    const password = 'a long developer password';
    const signUp = await postForm(portal('register/'), { email, password });
    expect(signUp.status).toBe(200);
    expect(signUp.text).toContain('An administrator approves new accounts');

    const developer = (await org.call('GET', `/api/portal/developers/email/${email}`)).json<{ id: string; inactive: boolean; awaiting_approval: boolean }>();
    expect(developer).toMatchObject({ inactive: true, awaiting_approval: true });
    const wrong = await postForm(portal('login/'), { email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('approval');
    const waiting = await postForm(portal('login/'), { email, password });
    expect(waiting.status).toBe(403);
    expect(waiting.text).toContain('waiting for an administrator’s approval');
    expect((await org.call('POST', '/api/portal/developers/verify_credentials', { username: email, password })).status).toBe(401);

    // No key for a developer still being vetted: approving their key request waits for the developer's approval.
    const policy = await ok(org.call('POST', '/api/portal/policies', { name: 'Vetted', rate: 10, per: 60 }));
    const keyRequest = await ok(org.call('POST', '/api/portal/requests', { by_user: developer.id, apply_policies: [policy] }));
    const early = await org.call('PUT', `/api/portal/requests/approve/${keyRequest}`);
    expect(early.status, early.text).toBe(409);
    expect(early.json<{ Message: string }>().Message).toContain('awaiting approval');

    expect((await stranger.call('PUT', `/api/portal/developers/approve/${developer.id}`)).status).toBe(404);
    expect(await ok(org.call('PUT', `/api/portal/developers/approve/${developer.id}`))).toBe('Developer approved');
    const approvedKey = await org.call('PUT', `/api/portal/requests/approve/${keyRequest}`);
    expect(approvedKey.status, approvedKey.text).toBe(200);
    expect(approvedKey.json<{ RawKey: string }>().RawKey).not.toBe('');
    expect(mailBody(await smtp.nextMessage(email))).toContain(`/portal/${org.id}/login/`);
    expect((await org.call('PUT', `/api/portal/developers/approve/${developer.id}`)).status).toBe(409);
    const signedIn = await postForm(portal('login/'), { email, password });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe(portal('member/'));
  });
});
