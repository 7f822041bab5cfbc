// Builds the dashboard's web UI (src/dashboard/ui) into dist/dashboard-ui/: one esbuild bundle of the TypeScript/JSX
// sources and their npm dependencies (Preact, CodeMirror 6, yaml) plus its CSS, with content-hashed names under
// assets/, and an index.html naming them. Everything comes from node_modules: the page loads nothing from any
// other origin. Runs from `npm ci` (prepare), `npm test` and the image's build stage; `gw dashboard` serves the
// result (src/dashboard/ui-files.ts). Plain JavaScript so it runs on whatever Node npm uses.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// GW_DIST_DIR: another dist/ directory for dashboard-ui/ and portal-site/ (the registry-free image build bundles
// into its own staging area).
const out = join(process.env.GW_DIST_DIR || join(root, 'dist'), 'dashboard-ui');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'src/dashboard/ui/main.tsx' },
  bundle: true,
  minify: true,
  format: 'esm',
  // The editor (CodeMirror) is loaded on first use (a dynamic import): sign-in and the lists do not wait for it.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'eof',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint === 'src/dashboard/ui/main.tsx');
const script = entry && basename(entry[0]);
const style = entry?.[1].cssBundle && basename(entry[1].cssBundle);
if (!script || !style) throw new Error(`build-ui: expected a .js and a .css output, got ${outputs.join(', ')}`);

writeFileSync(
  join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gw dashboard</title>
<link rel="stylesheet" href="/assets/${style}">
<script type="module" src="/assets/${script}"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>
`,
);
console.log(`build-ui: ${outputs.length} assets in ${out}`);

// The developer portal's browser files, beside the dashboard UI's (scripts/build-portal-site.mjs).
await import('./build-portal-site.mjs');
