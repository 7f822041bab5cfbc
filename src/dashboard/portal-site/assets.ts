// The portal's built browser files (scripts/build-portal-site.mjs writes dist/portal-site/: assets/ and
// manifest.json naming the site stylesheet and the API page's renderer script and stylesheet), read once at start
// into memory with a gzip copy of each (the renderer is ~1.6 MB, ~0.45 MB gzipped), and served immutable under
// <portal>/assets/<file>. Only files of the build are answered, so no request path reaches the file system. When
// the portal was not built the pages still render (without style) and the API page says how to build it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loadUiFiles, type UiFile } from '../ui-files.ts';

export const PORTAL_BUILD_DIR = fileURLToPath(new URL('../../../dist/portal-site/', import.meta.url));

export interface PortalManifest {
  site: string;
  apiDocsScript: string;
  apiDocsStyle: string;
}

export interface PortalAssets {
  /** undefined when the portal's browser files were not built. */
  manifest: PortalManifest | undefined;
  /** Answers one asset (404 for any other name). */
  send(request: FastifyRequest, reply: FastifyReply, name: string): FastifyReply;
}

export function loadPortalAssets(dir: string = PORTAL_BUILD_DIR): PortalAssets {
  const { assets } = loadUiFiles(dir);
  const gzipped = new Map<string, Buffer>([...assets].map(([name, file]) => [name, gzipSync(file.body)]));
  const manifestFile = join(dir, 'manifest.json');
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as PortalManifest) : undefined;
  return {
    manifest,
    send(request, reply, name) {
      const file: UiFile | undefined = assets.get(name);
      if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
      void reply.code(200).headers({
        'content-type': file.type,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        vary: 'accept-encoding',
      });
      return gzip ? reply.header('content-encoding', 'gzip').send(gzipped.get(name)) : reply.send(file.body);
    },
  };
}
