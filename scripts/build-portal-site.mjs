// Builds the developer portal's browser files (src/dashboard/portal-site/browser) into dist/portal-site/assets/,
// content-hashed, plus manifest.json naming them for the server (src/dashboard/portal-site/assets.ts):
//   site      the portal's own stylesheet (every page; the pages are server-rendered HTML and need no script)
//   apiDocs   the API page's script and stylesheet: Swagger UI from the npm package swagger-ui-dist, bundled here
//             (no CDN) and loaded by the API page only.
// Run by scripts/build-ui.mjs (so `npm ci`, `npm test`, the browser tests and the image build it too). Plain
// JavaScript so it runs on whatever Node npm uses.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// GW_DIST_DIR: another dist/ directory (as in scripts/build-ui.mjs, which runs this).
const out = join(process.env.GW_DIST_DIR || join(root, 'dist'), 'portal-site');
const source = 'src/dashboard/portal-site/browser';
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { site: `${source}/site.css`, 'api-docs': `${source}/api-docs.ts` },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  loader: { '.png': 'file', '.svg': 'file' },
  metafile: true,
  legalComments: 'eof',
  logLevel: 'warning',
});

const outputs = Object.entries(result.metafile.outputs);
const outputOf = (/** @type {string} */ entryPoint) => outputs.find(([, output]) => output.entryPoint === entryPoint);
const site = outputOf(`${source}/site.css`);
const apiDocs = outputOf(`${source}/api-docs.ts`);
if (!site || !apiDocs?.[1].cssBundle)
  throw new Error(`build-portal-site: expected site.css and api-docs .js/.css, got ${outputs.map(([file]) => basename(file)).join(', ')}`);
const manifest = { site: basename(site[0]), apiDocsScript: basename(apiDocs[0]), apiDocsStyle: basename(apiDocs[1].cssBundle) };
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`build-portal-site: ${outputs.length} assets in ${out}`);
