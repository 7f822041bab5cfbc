import { describe, expect, it } from 'vitest';
import { composeSubgraphs, describeCompositionProblems } from './compose.ts';

const USERS = 'extend type Query { me: User }\ntype User @key(fields: "id") { id: ID! name: String }';
const REVIEWS_V2 =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])\ntype User @key(fields: "id") { id: ID! reviews: [String!] }\ntype Query { top: [User!]! }';

describe('composeSubgraphs', () => {
  it('composes a federation v1 and a v2 subgraph: the public SDL has no federation directives, the supergraph SDL joins them', () => {
    const composed = composeSubgraphs([
      { name: 'users', sdl: USERS, url: 'http://u' },
      { name: 'reviews', sdl: REVIEWS_V2, url: 'http://r' },
    ]);
    if (!('publicSdl' in composed)) throw new Error(describeCompositionProblems(composed.problems));
    expect(composed.publicSdl).toContain('reviews: [String!]');
    expect(composed.publicSdl).not.toContain('@key');
    expect(composed.supergraphSdl).toContain('@join__graph(name: "users", url: "http://u")');
  });

  it('names the subgraph of a syntax error with its line, and the subgraphs of a conflict', () => {
    const syntax = composeSubgraphs([
      { name: 'users', sdl: USERS },
      { name: 'broken', sdl: 'type Query {\n  a Int\n}' },
    ]);
    expect('problems' in syntax && describeCompositionProblems(syntax.problems)).toBe(
      'subgraph broken: Syntax Error: Expected ":", found Name "Int". (line 2, column 5)',
    );
    const conflict = composeSubgraphs([
      { name: 'users', sdl: USERS },
      { name: 'people', sdl: 'extend type Query { people: [User] }\ntype User @key(fields: "id") { id: String! }' },
    ]);
    if (!('problems' in conflict)) throw new Error('composed');
    const text = describeCompositionProblems(conflict.problems);
    expect(text).toContain('User.id');
    expect(text).toContain('"people"');
  });

  it('refuses an empty list', () => {
    expect(composeSubgraphs([])).toEqual({ problems: [{ message: 'no subgraphs to compose' }] });
  });
});
