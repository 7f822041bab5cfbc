// bench/heap-diff: what grew between two V8 heap snapshots (.heapsnapshot files, e.g. the two bench/soak.ts
// --snapshots writes): the objects' count and self size summed by constructor (or by node type where there is no
// constructor: strings, code, arrays), sorted by the growth of the total size, the top N printed.
//
//   node scripts/node24.mjs node bench/heap-diff.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top 25]
//
// Self size is what an object itself holds, not what it keeps alive: a Map that grew shows as the Map's own table
// plus its entries' constructors, which is where a leak shows first. Reads each file whole (a 50 MB snapshot needs
// about 1 GB of memory).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

/** Count and self size of the snapshot's objects, by "type: name" (the name being the constructor for objects). */
export function groupByConstructor(snapshot: HeapSnapshot): Map<string, Group> {
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snapshot.snapshot.meta.node_types[0];
  const groups = new Map<string, Group>();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!] ?? 'unknown';
    // Strings and numbers are named by their value: group them by type alone.
    const named = type === 'object' || type === 'closure' || type === 'native';
    const key = named ? `${type}: ${snapshot.strings[snapshot.nodes[i + nameAt]!]}` : type;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += snapshot.nodes[i + sizeAt]!;
    groups.set(key, group);
  }
  return groups;
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(2);

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
  if (positionals.length !== 2) {
    process.stderr.write('usage: bench/heap-diff.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top 25]\n');
    process.exit(2);
  }
  const [before, after] = positionals.map((file) => groupByConstructor(JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot));
  const total = (groups: Map<string, Group>): number => [...groups.values()].reduce((sum, g) => sum + g.bytes, 0);
  const rows = [...new Set([...before!.keys(), ...after!.keys()])].map((key) => {
    const b = before!.get(key) ?? { count: 0, bytes: 0 };
    const a = after!.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: a.count - b.count, bytes: a.bytes - b.bytes, afterBytes: a.bytes };
  });
  rows.sort((x, y) => y.bytes - x.bytes);
  console.log(`self size: ${mb(total(before!))} MB -> ${mb(total(after!))} MB`);
  console.log('| constructor | objects added | MB added | MB after |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows.slice(0, Number(values.top))) console.log(`| ${row.key} | ${row.count} | ${mb(row.bytes)} | ${mb(row.afterBytes)} |`);
}
