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
const out = join(root, 'dist', 'dashboard-ui');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'src/dashboard/ui/main.tsx' },
  bundle: true,
  minify: true,
  format: 'esm',
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
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
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
