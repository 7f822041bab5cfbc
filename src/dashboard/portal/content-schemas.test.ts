// content-schemas.ts: what a portal page, the menus and the custom CSS may be (Tyk's field names, bounded).
import { describe, expect, it } from 'vitest';
import { CssInput, MenusInput, PageInput, cssProblem } from './content-schemas.ts';

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string[] =>
  result.success ? [] : result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('a portal page', () => {
  it("takes Tyk's fields with their defaults, the slug without its slashes", () => {
    const page = PageInput.parse({ title: 'About', slug: '/about/', fields: { PageContent: '# Hi' } });
    expect(page).toEqual({
      title: 'About',
      slug: 'about',
      template_name: '',
      fields: { PageContent: '# Hi' },
      is_homepage: false,
      is_live: true,
      page_settings: {},
    });
  });

  it('lets only the homepage have no slug (Tyk\'s sample homepage has slug "/")', () => {
    expect(PageInput.parse({ title: 'Home', slug: '/', is_homepage: true }).slug).toBe('');
    expect(issues(PageInput.safeParse({ title: 'Page', slug: '/' }))).toEqual(['slug: must not be empty (only the homepage may have none)']);
  });

  it("refuses a slug of more than one segment, odd characters, or a name of the portal's own pages (any case)", () => {
    expect(issues(PageInput.safeParse({ title: 'x', slug: 'a/b' }))[0]).toMatch(/^slug: must be one path segment/);
    expect(issues(PageInput.safeParse({ title: 'x', slug: 'a b' }))[0]).toMatch(/^slug: must be one path segment/);
    expect(issues(PageInput.safeParse({ title: 'x', slug: '..' }))[0]).toMatch(/^slug: must be one path segment/);
    for (const reserved of ['apis', 'Login', 'member', 'assets', 'register', 'password', 'logout'])
      expect(issues(PageInput.safeParse({ title: 'x', slug: reserved }))[0]).toMatch(/^slug: ".*" is one of the portal's own pages/);
  });

  it('bounds the fields: names, count and total size', () => {
    expect(issues(PageInput.safeParse({ title: 'x', slug: 'a', fields: { 'bad name': 'x' } }))[0]).toMatch(/^fields\.bad name: field names/);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`F${i}`, 'x']));
    expect(issues(PageInput.safeParse({ title: 'x', slug: 'a', fields: many }))).toEqual(['fields: at most 50 fields']);
    const big = { A: 'x'.repeat(100_000), B: 'x'.repeat(100_000), C: 'x' };
    expect(issues(PageInput.safeParse({ title: 'x', slug: 'a', fields: big }))).toEqual(['fields: at most 200 000 characters in all']);
  });
});

describe('the menus', () => {
  it('are named lists of {Title, URL}: a portal path or an http(s) address', () => {
    const menus = {
      Main: [
        { Title: 'About', URL: 'about' },
        { Title: 'Blog', URL: 'https://blog.example.test/' },
        { Title: 'APIs', URL: '/apis/' },
      ],
    };
    expect(MenusInput.parse({ menus })).toEqual({ menus, is_active: true });
  });

  it('refuse other schemes, protocol-relative addresses and odd characters', () => {
    for (const URL of ['javascript:alert(1)', 'data:text/html,x', '//evil.test/', 'a"onmouseover=x', '\\\\evil.test'])
      expect(issues(MenusInput.safeParse({ menus: { Main: [{ Title: 't', URL }] } })).length, URL).toBe(1);
  });
});

describe('the custom CSS', () => {
  it('is bounded and refuses @import however it is written', () => {
    expect(CssInput.parse({ page_css: 'h1 { color: #123456 }' })).toEqual({ page_css: 'h1 { color: #123456 }', email_css: '' });
    expect(cssProblem('@import url(https://evil.test/x.css);')).toMatch(/must not @import/);
    expect(cssProblem('@IMPORT "x.css";')).toMatch(/must not @import/);
    expect(cssProblem('@\\69mport "https://evil.test/x.css";')).toMatch(/escapes/);
    expect(issues(CssInput.safeParse({ page_css: 'x'.repeat(65_537) }))).toEqual(['page_css: must be at most 65536 characters']);
  });
});
