// The gateway's module layout, checked over its import graph (every `import`, `import type`, `export ... from` and
// `import()` of src/gateway, read with TypeScript's own pre-processor):
//   - no file imports itself back through others (a circle makes the order of module evaluation, and which of two
//     concepts owns a type, an accident — the proxy and the middleware once imported each other);
//   - pipeline/ (the step contract, context, response phase, error replies, services) sits below proxy/ and
//     middleware/ and imports neither; middleware/ never imports proxy/ (the proxy composes the middleware, not
//     the reverse);
//   - response heads of proxied requests are written by pipeline/response-phase.ts alone (docs/architecture.md §3 "Two
//     phases": header writes happen there, nowhere else), so a response step sees every answer.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** file (relative to src/gateway) -> the files of src/gateway it imports. */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const targets = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)))
      .filter((target) => !target.startsWith('..'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every strongly connected group of more than one file (or a file importing itself), as import paths. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)?.includes(node)) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('src/gateway import graph', () => {
  const graph = importGraph();

  it('reads the imports it checks (the pipeline is there and the proxy uses it)', () => {
    expect(graph.get(join('proxy', 'handler.ts'))).toContain(join('pipeline', 'contract.ts'));
  });

  it('has no circles, type-only imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  it.each([
    ['pipeline', ['proxy', 'middleware']],
    ['middleware', ['proxy']],
  ])('%s/ imports nothing from %j', (layer, above) => {
    const upward = [...graph]
      .filter(([file]) => file.startsWith(`${layer}/`))
      .flatMap(([file, targets]) => targets.filter((t) => above.some((dir) => t.startsWith(`${dir}/`))).map((t) => `${file} -> ${t}`));
    expect(upward).toEqual([]);
  });

  it('writes response heads of proxied requests only in the response phase', () => {
    const writers = [...graph.keys()]
      .filter((file) => /^(proxy|middleware|pipeline)\//.test(file) && file !== join('pipeline', 'response-phase.ts'))
      .filter((file) => /\.(writeHead|setHeader|appendHeader|writeContinue|flushHeaders)\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(writers).toEqual([]);
  });
});
