// A portal page's body from its stored fields (Tyk's classic portal pages: title, fields{...}), without Tyk's Go
// templates: every field value is Markdown (markdown.ts: raw HTML shows as text, links only to safe URLs) and no
// field is ever written as HTML. Tyk's default home template's fields are laid out as it lays them out: the
// JumboCTATitle heading (else the page title), SubHeading, the JumboCTALink call to action, then panels One, Two
// and Three (PanelXTitle, PanelXContent, PanelXLink with PanelXLinkTitle); PageContent follows the heading; any
// other field is a Markdown section after them, in field-name order (the store does not keep the order fields
// were written in). A relative link (a page's slug, `apis/`) resolves inside the portal.
import { html, type Html } from './html.ts';
import { markdown, safeLinkUrl } from './markdown.ts';

const PANELS = ['One', 'Two', 'Three'] as const;
const LAID_OUT = new Set(['JumboCTATitle', 'SubHeading', 'JumboCTALink', 'JumboCTALinkTitle', 'PageContent']);
for (const panel of PANELS) for (const part of ['Title', 'Content', 'Link', 'LinkTitle']) LAID_OUT.add(`Panel${panel}${part}`);

/** A link's target on this portal: http(s) and mailto as they are, `#...` as it is, a relative path under the portal's base. */
export function portalHref(base: string, url: string): string | undefined {
  const safe = safeLinkUrl(url.trim());
  if (safe === undefined) return undefined;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(safe) || safe.startsWith('#')) return safe;
  if (safe.startsWith('//')) return undefined;
  return `${base}${safe.replace(/^\/+/, '').replace(/^portal\//, '')}`;
}

function callToAction(base: string, url: string | undefined, text: string | undefined, fallback: string): Html | '' {
  const href = url ? portalHref(base, url) : undefined;
  return href ? html`<p><a class="button-link" href="${href}">${text || fallback}</a></p>` : '';
}

export interface PageToRender {
  title: string;
  fields: Record<string, string>;
}

export function pageBody(base: string, page: PageToRender): Html {
  const f = page.fields;
  const panels = PANELS.filter((panel) => f[`Panel${panel}Title`] || f[`Panel${panel}Content`]).map(
    (panel) => html`<section class="card" aria-labelledby="panel-${panel}">
<h2 id="panel-${panel}">${f[`Panel${panel}Title`] || page.title}</h2>
${markdown(f[`Panel${panel}Content`] ?? '', { headingOffset: 2 })}
${callToAction(base, f[`Panel${panel}Link`], f[`Panel${panel}LinkTitle`], 'Read more')}
</section>`,
  );
  const others = Object.keys(f)
    .filter((name) => !LAID_OUT.has(name) && f[name]!.trim() !== '')
    .sort()
    .map((name) => html`<section class="page-field">${markdown(f[name]!, { headingOffset: 1 })}</section>`);
  return html`<h1>${f.JumboCTATitle || page.title}</h1>
${f.SubHeading ? html`<p class="lead">${f.SubHeading}</p>` : ''}
${callToAction(base, f.JumboCTALink, f.JumboCTALinkTitle, 'Get started')}
${f.PageContent ? html`<div class="page-content">${markdown(f.PageContent, { headingOffset: 1 })}</div>` : ''}
${panels.length > 0 ? html`<div class="panels">${panels}</div>` : ''}
${others}`;
}
