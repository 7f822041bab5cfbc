// CORS as Tyk answers it (rs/cors, wrapped around the whole chain): a request step that answers a preflight
// (OPTIONS with Access-Control-Request-Method) with 204 before versions, endpoint lists or authentication, unless
// options_passthrough forwards it; and a response step that adds the CORS headers to every answer of the API
// (upstream, mock, the gateway's own errors), computed from the request alone. An origin, method or header that is
// not allowed gets no CORS headers (the browser then refuses); the request itself is never refused for CORS.
import type { CorsSpec } from '../../definition/api-spec.ts';
import type { ProxyContext, ResponseHead, ResponseStep, Step } from '../../pipeline/contract.ts';
import { respond } from '../../pipeline/response-phase.ts';
import { canonicalHeaderName } from '../../../domain/header-rules.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';

function isPreflight(ctx: ProxyContext): boolean {
  return ctx.method === 'OPTIONS' && !!ctx.req.headers['access-control-request-method'];
}

export const corsPreflight: Step = (ctx) => {
  if (!isPreflight(ctx) || ctx.api.spec.cors!.optionsPassthrough) return false;
  respond(ctx.res, { status: 204, headers: {}, origin: 'mock' }, '');
  return true;
};

export const corsHeaders: ResponseStep = {
  name: 'cors',
  head(ctx, head) {
    const cors = ctx.api.spec.cors!;
    if (isPreflight(ctx)) preflightHeaders(ctx, cors, head);
    else actualHeaders(ctx, cors, head);
  },
};

function preflightHeaders(ctx: ProxyContext, cors: CorsSpec, head: ResponseHead): void {
  addVary(head, 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  const origin = ctx.req.headers.origin;
  if (!origin || !originAllowed(cors, origin)) return;
  const method = String(ctx.req.headers['access-control-request-method']).toUpperCase();
  if (!methodAllowed(cors, method)) return;
  const requested = (ctx.req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map(canonicalHeaderName);
  if (!cors.anyHeader && requested.some((name) => !cors.headers.has(name.toLowerCase()))) return;
  head.headers['access-control-allow-origin'] = cors.anyOrigin ? '*' : origin;
  head.headers['access-control-allow-methods'] = method;
  if (requested.length > 0) head.headers['access-control-allow-headers'] = requested.join(', ');
  if (cors.allowCredentials) head.headers['access-control-allow-credentials'] = 'true';
  if (cors.maxAge > 0) head.headers['access-control-max-age'] = String(cors.maxAge);
}

function actualHeaders(ctx: ProxyContext, cors: CorsSpec, head: ResponseHead): void {
  addVary(head, 'Origin');
  const origin = ctx.req.headers.origin;
  if (!origin || !originAllowed(cors, origin) || !methodAllowed(cors, ctx.method)) return;
  head.headers['access-control-allow-origin'] = cors.anyOrigin ? '*' : origin;
  if (cors.exposedHeaders) head.headers['access-control-expose-headers'] = cors.exposedHeaders;
  if (cors.allowCredentials) head.headers['access-control-allow-credentials'] = 'true';
}

function originAllowed(cors: CorsSpec, origin: string): boolean {
  if (cors.anyOrigin) return true;
  const lower = origin.toLowerCase();
  if (cors.origins.has(lower)) return true;
  return cors.originWildcards.some(({ prefix, suffix }) => lower.length >= prefix.length + suffix.length && lower.startsWith(prefix) && lower.endsWith(suffix));
}

function methodAllowed(cors: CorsSpec, method: string): boolean {
  return method === 'OPTIONS' || cors.methods.has(method);
}

function addVary(head: ResponseHead, value: string): void {
  const existing = head.headers.vary;
  head.headers.vary = existing === undefined || existing === '' ? value : `${Array.isArray(existing) ? existing.join(', ') : String(existing)}, ${value}`;
}

/** The preflight answer in the request phase, the CORS headers on every answer in the response phase. */
export const corsStep: StepDescriptor = {
  name: 'cors',
  enabledFor: (api) => api.cors !== undefined,
  build: () => ({ request: corsPreflight, response: corsHeaders }),
};
