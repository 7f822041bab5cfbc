// Serves the built web UI (scripts/build-ui.mjs writes it to dist/dashboard-ui/: index.html plus content-hashed
// assets/) at / and /assets/<file>, read once at start into memory. Only those exact files are answered, so no
// request path ever reaches the file system. index.html is never cached (it names the current assets); assets
// are immutable (a new build gives new names). Every answer carries a Content-Security-Policy allowing only this
// origin's scripts and no framing. Must never serve anything under /api, /admin, /system or /session. When the UI
// was not built, / answers 503 saying how to build it (the API keeps working).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { param, route, sendError } from './http.ts';

/** Where the build writes the UI (the repository's, or the image's, dist/dashboard-ui). */
export const UI_BUILD_DIR = fileURLToPath(new URL('../../dist/dashboard-ui/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

// CodeMirror adds its theme through <style> elements, hence 'unsafe-inline' for styles (never for scripts).
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export interface UiFile {
  body: Buffer;
  type: string;
}

/** The build's index.html and assets/ files by name (also the developer portal's, portal-site/assets.ts). */
export function loadUiFiles(dir: string): { index: UiFile | undefined; assets: Map<string, UiFile> } {
  const assets = new Map<string, UiFile>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      const type = CONTENT_TYPES[extname(name)];
      if (type) assets.set(name, { body: readFileSync(join(assetDir, name)), type });
    }
  }
  const indexFile = join(dir, 'index.html');
  const index = existsSync(indexFile) ? { body: readFileSync(indexFile), type: CONTENT_TYPES['.html']! } : undefined;
  return { index, assets };
}

function send(reply: FastifyReply, file: UiFile, cache: string): FastifyReply {
  return reply
    .code(200)
    .headers({ ...SECURITY_HEADERS, 'content-type': file.type, 'cache-control': cache })
    .send(file.body);
}

export function registerUiRoutes(app: FastifyInstance, dir: string = UI_BUILD_DIR): void {
  const { index, assets } = loadUiFiles(dir);
  route(app, '/', {
    GET: async (_request, reply) => {
      if (!index) return sendError(reply, 503, 'The web UI is not built: run `npm run build:ui` (npm ci does it), then restart the dashboard');
      return send(reply, index, 'no-cache');
    },
  });
  route(app, '/assets/:file', {
    GET: async (request, reply) => {
      const file = assets.get(param(request, 'file'));
      if (!file) return sendError(reply, 404, 'Not found');
      return send(reply, file, 'public, max-age=31536000, immutable');
    },
  });
}
