// The property names a set of TypeScript sources reads, for the accepted-fields guard: `x.name`, `x?.name`,
// `x['name']`, destructuring `{ name }` / `{ name: local }`, and `'name' in x`. Parsed with the TypeScript compiler
// (syntax only, no type checking), so object literal keys and schema declarations (`name: z.string()`) do not
// count: a field only declared is not read.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** .ts files under `dir`, tests and the directories named in `skip` (relative to `dir`) left out. */
export function sourceFiles(dir: string, skip: readonly string[] = []): string[] {
  const files: string[] = [];
  const visit = (current: string, relative: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip.includes(rel) || entry.name === 'node_modules') continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) visit(full, rel);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  visit(dir, '');
  return files;
}

/** Every property name read in the files. */
export function propertyReads(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      false,
      file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    collect(source, names);
  }
  return names;
}

function collect(node: ts.Node, names: Set<string>): void {
  if (ts.isPropertyAccessExpression(node)) names.add(node.name.text);
  else if (ts.isObjectBindingPattern(node)) {
    for (const element of node.elements) {
      const property = element.propertyName ?? element.name;
      if (ts.isIdentifier(property) || ts.isStringLiteralLike(property)) names.add(property.text);
    }
  } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) names.add(node.argumentExpression.text);
  else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword && ts.isStringLiteralLike(node.left)) {
    names.add(node.left.text);
  }
  ts.forEachChild(node, (child) => collect(child, names));
}
