// The GraphQL query depth bounds: brackets counted outside strings and comments, refused past 100 (query-nesting.ts);
// a fragment chain too long for the stack answered as an error (document-analysis.ts).
import { describe, expect, it } from 'vitest';
import { buildSchema } from 'graphql';
import { analyseDocument } from './document-analysis.ts';
import { queryNestingProblem } from './query-nesting.ts';

const nestedQuery = (depth: number): string => `${'{a'.repeat(depth)}${'}'.repeat(depth)}`;

describe('GraphQL query nesting', () => {
  it('accepts 100 levels and refuses the 101st, naming where', () => {
    expect(queryNestingProblem(nestedQuery(100))).toBeUndefined();
    expect(queryNestingProblem(nestedQuery(101))).toBe('the query is nested deeper than 100 levels (at character 200)');
  });

  it('does not count brackets in strings, block strings or comments', () => {
    const deepText = '{'.repeat(500);
    expect(queryNestingProblem(`{ a(s: "${deepText}\\"${deepText}") }`)).toBeUndefined();
    expect(queryNestingProblem(`{ a(s: """${deepText} \\""" ${deepText}""") }`)).toBeUndefined();
    expect(queryNestingProblem(`# ${deepText}\n{ a }`)).toBeUndefined();
    expect(queryNestingProblem(`{ a(s: [${'['.repeat(100)}]) }`)).toMatch(/deeper than 100/);
  });

  it('makes a query nested 5 000 deep a syntax error, not a stack overflow (issue 23 item 9)', () => {
    const schema = buildSchema('type Query { a: Query, b: String }');
    const analysis = analyseDocument(schema, nestedQuery(5_000));
    expect(analysis.ok).toBe(false);
    expect(!analysis.ok && analysis.errors[0]?.message).toBe('the query is nested deeper than 100 levels (at character 200)');
  });

  it('answers a chain of 10 000 fragments, each spreading the next, with an error instead of a stack overflow', () => {
    const schema = buildSchema('type Query { a: Query, b: String }');
    let query = '{ ...F0 }\n';
    for (let i = 0; i < 10_000; i++) query += `fragment F${i} on Query { a { ...F${i + 1} } }\n`;
    query += 'fragment F10000 on Query { b }\n';
    const analysis = analyseDocument(schema, query);
    expect(analysis.ok).toBe(false);
    expect(!analysis.ok && analysis.errors[0]?.message).toMatch(/^the query nests too deeply to analyse \(Maximum call stack size exceeded\)$/);
  });
});
