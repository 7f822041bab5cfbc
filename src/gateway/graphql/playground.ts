// The GraphQL playground (Classic graphql.playground {enabled, path}): as Tyk Gateway does, a GET on
// `{listen_path}{path}` answers the playground page and `{listen_path}{path}/playground.js` its script (plus
// `/playground.css` here), before versions and authentication (the page is static; the queries it sends carry the
// headers the user types and go through the API's whole pipeline). Everything is served from the gateway (no CDN)
// with a Content-Security-Policy allowing only the gateway's own script, style sheet and the API itself. Other
// requests pass on.
import type { ProxyContext, ResponseHead, Step } from '../pipeline/contract.ts';
import { respond } from '../pipeline/response-phase.ts';
import type { StepDescriptor } from '../pipeline/step.ts';
import { PLAYGROUND_CSS, PLAYGROUND_JS, playgroundHtml } from './playground-page.ts';

/** Nothing but the gateway's own assets and the API; no inline script or style, no framing, no form posts. */
export const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `path`: relative to the listen path, starting with '/' ('/' serves the page on the listen path itself). */
export function graphqlPlayground(path: string): Step {
  const assetBase = path === '/' ? '' : path;
  const js = Buffer.from(PLAYGROUND_JS);
  const css = Buffer.from(PLAYGROUND_CSS);
  return (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    if (ctx.relPath === path) {
      const prefix = ctx.path.slice(0, ctx.path.length - ctx.relPath.length);
      const base = `${prefix}${assetBase}`;
      serve(ctx, 'text/html; charset=utf-8', Buffer.from(playgroundHtml(prefix === '' ? '/' : prefix, base)));
      return true;
    }
    if (ctx.relPath === `${assetBase}/playground.js`) {
      serve(ctx, 'text/javascript; charset=utf-8', js);
      return true;
    }
    if (ctx.relPath === `${assetBase}/playground.css`) {
      serve(ctx, 'text/css; charset=utf-8', css);
      return true;
    }
    return false;
  };
}

function serve(ctx: ProxyContext, type: string, body: Buffer): void {
  const headers: ResponseHead['headers'] = {
    'content-type': type,
    'content-length': String(body.length),
    'content-security-policy': PLAYGROUND_CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
  respond(ctx.res, { status: 200, headers, origin: 'mock' }, body); // node sends no body for HEAD
}

export const graphqlPlaygroundStep: StepDescriptor = {
  name: 'graphql-playground',
  enabledFor: (api) => api.graphql?.playgroundPath !== undefined,
  build: (api) => ({ request: graphqlPlayground(api.graphql!.playgroundPath!) }),
};
