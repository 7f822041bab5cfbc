// How deeply a GraphQL query text nests, counted before graphql-js parses it: its parser and validation recurse, so
// a 30 KB query nested 5 000 deep overflowed the stack (a 500). Counts `{`, `(` and `[` against their closers outside
// strings (`"..."`, block strings `"""..."""`) and comments (`#` to the end of the line), without recursing, and
// refuses past the limit every JSON body has (http/json-body.ts MAX_JSON_DEPTH, 100): far deeper than any query a
// schema can answer, far shallower than the stack.
import { MAX_JSON_DEPTH } from '../../http/json-body.ts';

/** The reason the query nests too deeply, or undefined. */
export function queryNestingProblem(query: string, maxDepth: number = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '#') {
      while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    } else if (c === '"') {
      i = query.startsWith('"""', i) ? blockStringEnd(query, i + 3) : stringEnd(query, i + 1);
    } else if (c === '{' || c === '(' || c === '[') {
      if (++depth > maxDepth) return `the query is nested deeper than ${maxDepth} levels (at character ${i})`;
    } else if (c === '}' || c === ')' || c === ']') depth--;
  }
  return undefined;
}

/** Index of the closing quote of a string whose text starts at `from` (or the end of the line/text). */
function stringEnd(query: string, from: number): number {
  for (let i = from; i < query.length; i++) {
    const c = query[i];
    if (c === '\\') i++;
    else if (c === '"' || c === '\n') return i;
  }
  return query.length;
}

/** Index of the last quote of the `"""` closing a block string whose text starts at `from`. */
function blockStringEnd(query: string, from: number): number {
  for (let i = from; i < query.length; i++) {
    if (query.startsWith('\\"""', i)) i += 3;
    else if (query.startsWith('"""', i)) return i + 2;
  }
  return query.length;
}
