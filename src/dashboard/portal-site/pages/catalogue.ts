// The catalogue page and the API page of a portal. The catalogue lists the organisation's entries with
// `show: true`: name, an auth-type badge, the description (Markdown, markdown.ts), "View documentation" when the entry has a document
// and "Request an API key" unless it is keyless (as Tyk's classic portal shows them); with
// catalogue_login_only, anonymous visitors are sent to sign in. The API page renders an entry's OpenAPI/Swagger
// document with Swagger UI, under the entry's description and the base URL to call (api-address.ts) (the renderer's script and style are loaded on this page only); the document itself
// is answered at .../documentation.json, decoded from the base64 the portal API stores. A document is only
// shown when a shown entry of THIS organisation's catalogue names it: another organisation's document ids, and
// documents no entry lists, are not found.
import { HttpError } from '../../../http/errors.ts';
import { param } from '../../../http/routes.ts';
import type { CatalogueEntry } from '../../portal/schemas.ts';
import { getCatalogue } from '../../portal/store/catalogue.ts';
import { getDocumentation, type Documentation } from '../../portal/store/documentation.ts';
import { requireDeveloper, sendPage, type PortalContext } from '../context.ts';
import { apiAddressesOfPolicy, type ApiAddress } from '../api-address.ts';
import { html, type Html } from '../html.ts';
import { markdown } from '../markdown.ts';

const AUTH_LABELS: Record<string, string> = {
  keyless: 'Open (keyless)',
  authToken: 'Auth token',
  basic: 'Basic auth',
  hmac: 'HMAC',
  jwt: 'JWT',
  oauth: 'OAuth 2.0',
  openid: 'OpenID Connect',
  mutualTLS: 'Mutual TLS',
  multiAuth: 'Multiple methods',
  custom: 'Custom',
  other: 'Other',
};

/** The entries visitors see: those with show: true. */
async function shownEntries(ctx: PortalContext): Promise<CatalogueEntry[]> {
  return ((await getCatalogue(ctx.deps.db, ctx.site.org.id))?.apis ?? []).filter((entry) => entry.show);
}

function entryCard(ctx: PortalContext, entry: CatalogueEntry, index: number): ReturnType<typeof html> {
  const headingId = `entry-${index}`;
  const auth = entry.is_keyless ? 'keyless' : entry.auth_type;
  const description = entry.long_description || entry.short_description;
  return html`<li class="card" aria-labelledby="${headingId}">
<h2 id="${headingId}">${entry.name}</h2>
${auth ? html`<p><span class="badge">${AUTH_LABELS[auth] ?? auth}</span></p>` : ''}
${entry.short_description && entry.long_description ? html`<p><strong>${entry.short_description}</strong></p>` : ''}
${description ? html`<div class="description">${markdown(description, { headingOffset: 2 })}</div>` : ''}
<p class="actions">
${entry.documentation ? html`<a class="button secondary" href="${ctx.site.base}apis/${encodeURIComponent(entry.documentation)}/documentation/" aria-label="View documentation of ${entry.name}">View documentation</a>` : ''}
${entry.is_keyless ? '' : html`<a class="button" href="${ctx.site.base}member/policies/${encodeURIComponent(entry.policy_id)}/request/" aria-label="Request an API key for ${entry.name}">Request an API key</a>`}
</p>
</li>`;
}

export async function cataloguePage(ctx: PortalContext): Promise<unknown> {
  if (ctx.settings.catalogue_login_only && !requireDeveloper(ctx)) return;
  const entries = await shownEntries(ctx);
  return sendPage(
    ctx,
    { title: 'API catalogue', current: 'catalogue' },
    html`<h1>API catalogue</h1>
${entries.length === 0 ? html`<p>No APIs are published here yet.</p>` : html`<ul class="cards" aria-label="APIs">${entries.map((entry, i) => entryCard(ctx, entry, i))}</ul>`}`,
  );
}

/** The document this request names, when a shown entry of the site's catalogue lists it; else 404. */
async function listedDocument(ctx: PortalContext): Promise<{ entry: CatalogueEntry; doc: Documentation }> {
  const id = param(ctx.request, 'docId');
  const entry = (await shownEntries(ctx)).find((candidate) => candidate.documentation === id);
  const doc = entry && (await getDocumentation(ctx.deps.db, ctx.site.org.id, id));
  if (!entry || !doc) throw new HttpError('not_found', 'documentation not found');
  return { entry, doc };
}

/** The document's text: base64 as the portal API stores Swagger/OpenAPI documents, or the text itself. */
export function documentText(doc: Documentation): string {
  const stored = doc.documentation.trim();
  if (/^[A-Za-z0-9+/=\s]+$/.test(stored)) {
    const decoded = Buffer.from(stored, 'base64').toString('utf8');
    if (/^\s*[{[]|^\s*(openapi|swagger)\s*:/m.test(decoded)) return decoded;
  }
  return doc.documentation;
}

function customUrlOf(doc: Documentation): URL | undefined {
  if (doc.doc_type !== 'swagger_custom_url' || !URL.canParse(doc.documentation.trim())) return undefined;
  const url = new URL(doc.documentation.trim());
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

/** Where to call the entry's APIs (api-address.ts): a labelled list of base URLs. */
function baseUrls(addresses: readonly ApiAddress[]): Html | string {
  if (addresses.length === 0) return '';
  const relative = addresses.some((address) => !address.absolute);
  return html`<section aria-labelledby="base-url-heading">
<h2 id="base-url-heading">Base URL</h2>
<dl class="base-urls">${addresses.map((address) => html`<dt>${address.name}</dt><dd><code>${address.url}</code></dd>`)}</dl>
${relative ? html`<p class="muted">Paths on the API gateway: ask the API provider for the gateway's address.</p>` : ''}
</section>`;
}

export async function apiPage(ctx: PortalContext): Promise<unknown> {
  if (ctx.settings.catalogue_login_only && !requireDeveloper(ctx)) return;
  const { entry, doc } = await listedDocument(ctx);
  const keyLink = entry.is_keyless
    ? ''
    : html`<p><a class="button" href="${ctx.site.base}member/policies/${encodeURIComponent(entry.policy_id)}/request/">Request an API key</a></p>`;
  const addresses = await apiAddressesOfPolicy(ctx.deps.db, ctx.site.org.id, entry.policy_id, ctx.deps.config.gateway_public_url);
  const heading = html`<h1>${entry.name}</h1>${entry.short_description ? html`<p>${entry.short_description}</p>` : ''}
${entry.long_description ? html`<div class="description">${markdown(entry.long_description, { headingOffset: 1 })}</div>` : ''}
${baseUrls(addresses)}${keyLink}`;
  if (doc.doc_type === 'graphql' || doc.doc_type === 'blueprint') {
    return sendPage(
      ctx,
      { title: entry.name, current: 'catalogue' },
      html`${heading}<h2>Schema</h2><pre class="api-document" tabindex="0" aria-label="Schema of ${entry.name}">${documentText(doc)}</pre>`,
    );
  }
  const manifest = ctx.assets.manifest;
  if (!manifest) {
    return sendPage(
      ctx,
      { title: entry.name, current: 'catalogue', status: 503 },
      html`${heading}<p role="alert" class="alert">The documentation viewer is not built: run <code>npm run build:ui</code> (npm ci does it), then restart the dashboard.</p>`,
    );
  }
  const custom = customUrlOf(doc);
  const documentUrl = custom ? custom.href : `${ctx.site.base}apis/${encodeURIComponent(doc.id)}/documentation.json`;
  return sendPage(
    ctx,
    {
      title: entry.name,
      current: 'catalogue',
      styles: [manifest.apiDocsStyle],
      scripts: [manifest.apiDocsScript],
      inlineStyles: true,
      connect: custom ? [custom.origin] : [],
    },
    html`${heading}
<h2>Reference</h2>
<p class="muted">Rendered from the API's OpenAPI document (<a href="${documentUrl}">download it</a>).</p>
<div id="api-document" class="api-document" data-document-url="${documentUrl}" role="region" aria-label="API reference of ${entry.name}"></div>`,
  );
}

/** The document itself, for the renderer (and a developer's tools). */
export async function documentFile(ctx: PortalContext): Promise<unknown> {
  if (ctx.settings.catalogue_login_only && !requireDeveloper(ctx)) return;
  const { doc } = await listedDocument(ctx);
  const text = documentText(doc);
  const isJson = /^\s*[{[]/.test(text);
  return ctx.reply
    .code(200)
    .headers({
      'content-type': isJson ? 'application/json; charset=utf-8' : 'text/yaml; charset=utf-8',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    })
    .send(text);
}
