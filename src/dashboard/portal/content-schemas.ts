// The classic portal's content bodies, with Tyk's field names (docs:tyk-apis/tyk-portal-api/portal-configuration):
// a page {title, slug, template_name, fields{PanelOneContent...}, is_homepage, is_live, page_settings}, the menus
// {menus: {<menu name>: [{Title, URL}]}, is_active} and the custom CSS {page_css, email_css}. Everything is
// bounded (lengths, counts); a slug is one path segment of the portal that no built-in page uses; a menu item's URL
// is a path inside the portal or an http(s) address; the CSS may not @import a remote stylesheet. Read-only
// fields a client echoes back (id, org_id) are accepted and ignored.
import { z } from 'zod';

const Text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** The portal's own first path segments: a page cannot take them. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['apis', 'register', 'login', 'logout', 'password', 'member', 'assets']);

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** A slug as stored: surrounding slashes and blanks removed (Tyk's sample homepage has slug "/"). */
export function normaliseSlug(slug: string): string {
  return slug.trim().replace(/^\/+|\/+$/g, '');
}

const PageFields = z
  .record(z.string(), Text(100_000))
  .superRefine((fields, ctx) => {
    for (const name of Object.keys(fields))
      if (!/^[A-Za-z0-9_]{1,100}$/.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'field names are 1 to 100 letters, digits and _' });
  })
  .refine((fields) => Object.keys(fields).length <= 50, 'at most 50 fields')
  .refine((fields) => Object.values(fields).reduce((sum, text) => sum + text.length, 0) <= 200_000, 'at most 200 000 characters in all');

export const PageInput = z
  .object({
    id: z.string().optional(),
    org_id: z.string().optional(),
    title: Text(200).min(1, 'must not be empty'),
    slug: Text(200).transform(normaliseSlug).default(''),
    template_name: Text(100).default(''),
    fields: PageFields.default({}),
    is_homepage: z.boolean().default(false),
    is_live: z.boolean().default(true),
    page_settings: z.record(z.string().max(100), z.unknown()).default({}),
  })
  .superRefine((page, ctx) => {
    if (page.slug === '' && !page.is_homepage) ctx.addIssue({ code: 'custom', path: ['slug'], message: 'must not be empty (only the homepage may have none)' });
    else if (page.slug !== '' && !SLUG.test(page.slug))
      ctx.addIssue({ code: 'custom', path: ['slug'], message: 'must be one path segment of letters, digits, - and _ (at most 100)' });
    else if (RESERVED_SLUGS.has(page.slug.toLowerCase()))
      ctx.addIssue({ code: 'custom', path: ['slug'], message: `"${page.slug}" is one of the portal's own pages: choose another` });
    if (JSON.stringify(page.page_settings).length > 10_000)
      ctx.addIssue({ code: 'custom', path: ['page_settings'], message: 'must be at most 10 000 characters as JSON' });
  });
export type PageInput = z.infer<typeof PageInput>;

/** A menu item's target: a path inside the portal (a page's slug, `apis/`), or an http(s) address. */
function menuUrlProblem(url: string): string | undefined {
  if (/^https?:\/\/[^\s]+$/i.test(url)) return undefined;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) || url.startsWith('//') || url.startsWith('\\')) return 'must be a path of the portal or an http(s) address';
  if (!/^\/?[A-Za-z0-9._~/#?=&%-]*$/.test(url)) return 'must be a path of the portal (letters, digits and - _ . ~ / # ? = & %)';
  return undefined;
}

const MenuItem = z.looseObject({
  Title: Text(100).min(1, 'must not be empty'),
  URL: Text(500).superRefine((url, ctx) => {
    const problem = menuUrlProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});
export type MenuItem = z.infer<typeof MenuItem>;

export const MenusInput = z.object({
  id: z.string().optional(),
  org_id: z.string().optional(),
  menus: z
    .record(Text(50).regex(/^[A-Za-z0-9_-]+$/, 'menu names are letters, digits, - and _'), z.array(MenuItem).max(30, 'at most 30 items'))
    .refine((menus) => Object.keys(menus).length <= 10, 'at most 10 menus')
    .default({}),
  is_active: z.boolean().default(true),
});
export type MenusInput = z.infer<typeof MenusInput>;

/** The largest custom stylesheet accepted, in characters. */
export const MAX_CSS_CHARACTERS = 65_536;

/**
 * Why this CSS is refused, or undefined. An @import would make every visitor's browser fetch another stylesheet
 * (another site's, or a portal path that is not a stylesheet): refused wherever it appears (comments too), as is an
 * at-rule name written with escapes (`@\69mport`), so the check cannot be dodged; the rules are pasted instead.
 * Remote url()s (fonts, images) are left to the portal's Content-Security-Policy, which blocks them.
 */
export function cssProblem(css: string): string | undefined {
  if (/@import/i.test(css)) return 'must not @import another stylesheet: paste its rules instead';
  if (css.includes('@\\')) return 'must not write an at-rule name with escapes';
  return undefined;
}

const Css = Text(MAX_CSS_CHARACTERS).superRefine((css, ctx) => {
  const problem = cssProblem(css);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const CssInput = z.object({
  id: z.string().optional(),
  org_id: z.string().optional(),
  page_css: Css.default(''),
  email_css: Css.default(''),
});
export type CssInput = z.infer<typeof CssInput>;
