// The signed-in developer's pages: "My keys" (each key by a short id with the catalogue entries of its policies
// and its usage over the last 7 days from the analytics pipeline's per-key aggregates, the key requests waiting
// for approval, and — once — any key an admin approved since the last visit), and the key request form of a
// catalogue entry (the configuration's key_request_fields; approved at once unless require_key_approval, in which
// case an admin approves it through /api/portal/requests/approve/{id}; with redirect_on_key_request the request is
// handed off to redirect_to instead). A key is shown once, on the page that
// issued it or, after an admin's approval, once on the developer's "Show my new key" post, never again: only its hash is stored. Everything is read
// with the site's org id and the developer's own id.
import { hashKey } from '../../../domain/key-hash.ts';
import { HttpError } from '../../../http/errors.ts';
import { param, queryValue } from '../../../http/routes.ts';
import { activity } from '../../store/analytics.ts';
import { requestKey } from '../../portal/key-requests.ts';
import type { CatalogueEntry } from '../../portal/schemas.ts';
import { entryForPolicy, getCatalogue, type Catalogue } from '../../portal/store/catalogue.ts';
import { getKeyRequest, listKeyRequests } from '../../portal/store/key-requests.ts';
import { redirectTo, requireDeveloper, sendPage, type PortalContext } from '../context.ts';
import { checkFormPost, CSRF_FIELD, formFields, type FormFields } from '../forms.ts';
import { html, type Html } from '../html.ts';
import { discardKeyPickup, keysWaitingFor, takeKeysForDeveloper } from '../key-pickup.ts';
import { fieldInput, fieldLabel } from './form-parts.ts';

const USAGE_DAYS = 7;
const MAX_PENDING_SHOWN = 100;

/** The shown, key-issuing catalogue entry of this policy; 404 otherwise. */
function requestableEntry(catalogue: Catalogue | undefined, policyId: string): CatalogueEntry {
  const entry = entryForPolicy(catalogue, policyId);
  if (!entry || !entry.show || entry.is_keyless) throw new HttpError('not_found', 'no such catalogue entry');
  return entry;
}

function shownKey(entryNames: string, key: string): Html {
  return html`<section class="notice" aria-labelledby="new-key-heading">
<h2 id="new-key-heading">Your key for ${entryNames}</h2>
<p>Copy it now: it is not shown again.</p>
<code class="secret" aria-label="Your new API key">${key}</code>
<p>Send it in the <code>Authorization</code> header of each request.</p>
</section>`;
}

const policyNames = (catalogue: Catalogue | undefined, policies: readonly string[]): string =>
  policies.map((policy) => entryForPolicy(catalogue, policy)?.name ?? policy).join(', ');

/** Where redirect_on_key_request hands key requests off to (an http(s) redirect_to), if anywhere. */
function handOff(settings: PortalContext['settings']): string | undefined {
  if (!settings.redirect_on_key_request || !URL.canParse(settings.redirect_to)) return undefined;
  const url = new URL(settings.redirect_to);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

export async function keyRequestPage(ctx: PortalContext): Promise<unknown> {
  const entry = requestableEntry(await getCatalogue(ctx.deps.db, ctx.site.org.id), param(ctx.request, 'policyId'));
  const settings = entry.config?.override ? entry.config : ctx.settings;
  const external = handOff(settings);
  if (external) return ctx.reply.code(303).headers({ location: external, 'cache-control': 'no-store' }).send();
  const signedIn = requireDeveloper(ctx);
  if (!signedIn) return;
  return sendPage(
    ctx,
    { title: `Request a key for ${entry.name}`, current: 'catalogue' },
    html`<h1>Request an API key for ${entry.name}</h1>
<p>${settings.require_key_approval ? 'An administrator reviews each request; your key appears under My keys once it is approved.' : 'Your key is issued at once and shown on the next page.'}</p>
<form class="stack" method="post" action="${ctx.site.base}member/policies/${encodeURIComponent(entry.policy_id)}/request/">
<input type="hidden" name="${CSRF_FIELD}" value="${signedIn.session.csrf_token}">
${settings.key_request_fields.map((name, i) => fieldInput({ id: `request-field-${i}`, name: `field.${name}`, label: fieldLabel(name), type: 'text', value: '' }))}
<p><button type="submit">Request key</button></p>
</form>`,
  );
}

/** A signed-in developer's form post, its CSRF checks passed; undefined (answered: to sign in) when anonymous. */
function signedInPost(ctx: PortalContext): { fields: FormFields; signedIn: NonNullable<PortalContext['signedIn']> } | undefined {
  const fields = formFields(ctx.request);
  const signedIn = requireDeveloper(ctx);
  if (!signedIn) return undefined;
  checkFormPost(ctx.request, fields, signedIn.session, ctx.deps.config.session_cookie_secure);
  return { fields, signedIn };
}

export async function requestKeyPost(ctx: PortalContext): Promise<unknown> {
  const post = signedInPost(ctx);
  if (!post) return;
  const { fields, signedIn } = post;
  const orgId = ctx.site.org.id;
  const catalogue = await getCatalogue(ctx.deps.db, orgId);
  const entry = requestableEntry(catalogue, param(ctx.request, 'policyId'));
  const settings = entry.config?.override ? entry.config : ctx.settings;
  const external = handOff(settings);
  if (external) return ctx.reply.code(303).headers({ location: external, 'cache-control': 'no-store' }).send();
  const answers = Object.fromEntries(settings.key_request_fields.map((name) => [name, (fields.get(`field.${name}`) ?? '').trim().slice(0, 10_000)]));
  const { request, key } = await requestKey(ctx.deps, orgId, signedIn.developer.id, { policyId: entry.policy_id, fields: answers });
  ctx.deps.log.info({ org: orgId, developer: signedIn.developer.id, request: request.id, approved: key !== undefined }, 'portal key requested');
  if (key === undefined) return redirectTo(ctx, 'member/?requested=1');
  await discardKeyPickup(ctx.deps.db, orgId, request.id);
  return sendPage(
    ctx,
    { title: `Your key for ${entry.name}`, current: 'member' },
    html`<h1>Your key for ${entry.name}</h1>${shownKey(entry.name, key)}<p><a href="${ctx.site.base}member/">Go to My keys</a></p>`,
  );
}

interface KeyUsage {
  hits: number;
  errors: number;
  latencySum: number;
}

/** Usage per key (by storage id) over the last USAGE_DAYS days: its analytics key hash is the storage id when keys are hashed, else the key's hash. */
async function usageOf(ctx: PortalContext, storageIds: readonly string[]): Promise<Map<string, KeyUsage>> {
  const byHash = new Map<string, string>();
  for (const id of storageIds) {
    byHash.set(id, id);
    byHash.set(hashKey(id), id);
  }
  const usage = new Map<string, KeyUsage>();
  if (storageIds.length === 0) return usage;
  const to = Date.now() + 60_000;
  const rows = await activity(ctx.deps.db, ctx.site.org.id, { dimension: 'key', from: to - USAGE_DAYS * 86_400_000, to, only: [...byHash.keys()] });
  for (const row of rows) {
    const id = byHash.get(row.group);
    if (id === undefined) continue;
    const sum = usage.get(id) ?? { hits: 0, errors: 0, latencySum: 0 };
    sum.hits += row.requests;
    sum.errors += row.errors;
    sum.latencySum += row.latency_sum;
    usage.set(id, sum);
  }
  return usage;
}

export async function memberPage(ctx: PortalContext): Promise<unknown> {
  const signedIn = requireDeveloper(ctx);
  if (!signedIn) return;
  const { developer } = signedIn;
  const orgId = ctx.site.org.id;
  const catalogue = await getCatalogue(ctx.deps.db, orgId);
  const pending = (await listKeyRequests(ctx.deps.db, orgId, { developerId: developer.id, approved: false }, { limit: MAX_PENDING_SHOWN, offset: 0 })).items;
  const declined = (await listKeyRequests(ctx.deps.db, orgId, { developerId: developer.id, status: 'declined' }, { limit: MAX_PENDING_SHOWN, offset: 0 }))
    .items;
  const waiting = (await Promise.all((await keysWaitingFor(ctx.deps.db, orgId, developer.id)).map((id) => getKeyRequest(ctx.deps.db, orgId, id)))).filter(
    (request) => request !== undefined,
  );
  const storageIds = Object.keys(developer.keys);
  const usage = await usageOf(ctx, storageIds);
  const notice =
    queryValue(ctx.request, 'requested') === '1' && pending.length > 0
      ? html`<p role="status" class="notice">Your key request was sent. An administrator will review it; your key appears here once it is approved.</p>`
      : '';
  return sendPage(
    ctx,
    { title: 'My keys', current: 'member' },
    html`<h1>My keys</h1>
${notice}
${
  waiting.length === 0
    ? ''
    : html`<section class="notice" aria-labelledby="approved-heading">
<h2 id="approved-heading">Approved</h2>
<ul>${waiting.map((request) => html`<li>Your key for ${policyNames(catalogue, request.apply_policies)} was approved.</li>`)}</ul>
<form method="post" action="${ctx.site.base}member/keys/"><input type="hidden" name="${CSRF_FIELD}" value="${signedIn.session.csrf_token}"><button type="submit">Show my new ${waiting.length === 1 ? 'key' : 'keys'}</button></form>
<p>Each key is shown once.</p>
</section>`
}
<h2>Keys</h2>
${
  storageIds.length === 0
    ? html`<p>You have no keys yet. <a href="${ctx.site.base}apis/">Browse the API catalogue</a> to request one.</p>`
    : html`<table>
<caption class="muted">Usage over the last ${USAGE_DAYS} days, from the gateways' analytics.</caption>
<thead><tr><th scope="col">Key</th><th scope="col">APIs</th><th scope="col" class="number">Requests</th><th scope="col" class="number">Errors</th><th scope="col" class="number">Average latency</th></tr></thead>
<tbody>${storageIds.map((id) => {
        const used = usage.get(id);
        return html`<tr><th scope="row"><code>${id.slice(0, 12)}…</code></th><td>${policyNames(catalogue, developer.keys[id] ?? [])}</td><td class="number">${used?.hits ?? 0}</td><td class="number">${used?.errors ?? 0}</td><td class="number">${used && used.hits > 0 ? `${Math.round(used.latencySum / used.hits)} ms` : '–'}</td></tr>`;
      })}</tbody>
</table>`
}
<h2>Waiting for approval</h2>
${
  pending.length === 0
    ? html`<p>No requests are waiting.</p>`
    : html`<ul aria-label="Requests waiting for approval">${pending.map((request) => html`<li>${policyNames(catalogue, request.apply_policies)}, requested ${request.date_created.slice(0, 16).replace('T', ' ')} UTC</li>`)}</ul>`
}
${
  declined.length === 0
    ? ''
    : html`<h2>Declined</h2><ul aria-label="Declined requests">${declined.map((request) => html`<li>${policyNames(catalogue, request.apply_policies)}, requested ${request.date_created.slice(0, 16).replace('T', ' ')} UTC: declined${request.decline_reason === '' ? '' : html`. Reason: ${request.decline_reason}`}</li>`)}</ul>`
}`,
  );
}

/** Shows (once) the keys admins approved since: a form post, so no prefetch or reload of a GET spends them. */
export async function revealKeys(ctx: PortalContext): Promise<unknown> {
  const signedIn = signedInPost(ctx)?.signedIn;
  if (!signedIn) return;
  const orgId = ctx.site.org.id;
  const catalogue = await getCatalogue(ctx.deps.db, orgId);
  const taken = await takeKeysForDeveloper(ctx.deps.db, ctx.deps.config.admin_secret, orgId, signedIn.developer.id);
  const shown = await Promise.all(
    [...taken].map(async ([requestId, key]) => {
      const request = await getKeyRequest(ctx.deps.db, orgId, requestId);
      const names = request ? policyNames(catalogue, request.apply_policies) : 'an API';
      return key === undefined
        ? html`<p role="alert" class="alert">Your key for ${names} was approved but can no longer be shown: ask an administrator for a new one.</p>`
        : shownKey(names, key);
    }),
  );
  return sendPage(
    ctx,
    { title: 'Your new keys', current: 'member' },
    html`<h1>Your new keys</h1>${shown.length === 0 ? html`<p>There is no new key to show: each key is shown once.</p>` : shown}<p><a href="${ctx.site.base}member/">Go to My keys</a></p>`,
  );
}
