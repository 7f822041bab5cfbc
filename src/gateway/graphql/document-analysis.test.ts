import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { analyseDocument, type OperationFacts } from './document-analysis.ts';

const schema = buildSchema(`
  type Query { user(id: ID!): User, users: [User!]! }
  type User { id: ID!, name: String!, friends: [User!]!, pet: Pet }
  type Pet { name: String! }
  type Mutation { rename(id: ID!, name: String!): User }
`);

function facts(query: string, name?: string): OperationFacts {
  const analysis = analyseDocument(schema, query);
  if (!analysis.ok) throw new Error(analysis.errors.map((e) => e.message).join('; '));
  return analysis.operations.get(name)!;
}

describe('analyseDocument', () => {
  it('reports syntax and validation errors with their locations', () => {
    const syntax = analyseDocument(schema, '{ users { ');
    expect(syntax.ok).toBe(false);
    const invalid = analyseDocument(schema, '{ users { shoe } }');
    expect(!invalid.ok && invalid.errors.map((e) => [e.message, e.locations])).toEqual([
      ['Cannot query field "shoe" on type "User".', [{ line: 1, column: 11 }]],
    ]);
  });

  it('counts depth from 1 at the root, through inline fragments and named fragments', () => {
    expect(facts('{ users { id } }').depth).toBe(2);
    expect(facts('{ users { friends { pet { name } } } }').depth).toBe(4);
    expect(facts('fragment F on User { friends { friends { id } } } { user(id: 1) { ... on User { ...F } } }').depth).toBe(4);
  });

  it('counts aliases where fragments are spread, once per spread', () => {
    expect(facts('fragment F on User { a: id b: name } { x: users { ...F } y: users { ...F } }').aliases).toBe(6);
    expect(facts('{ users { id } }').aliases).toBe(0);
  });

  it('lists the schema fields selected, introspection and __typename left out', () => {
    const selected = facts('fragment P on Pet { name } { users { __typename id pet { ...P } } __type(name: "User") { name } }').fields;
    expect(selected).toEqual([
      { type: 'Query', field: 'users' },
      { type: 'User', field: 'id' },
      { type: 'User', field: 'pet' },
      { type: 'Pet', field: 'name' },
    ]);
  });

  it('tells introspection apart: introspecting, only introspection, or neither', () => {
    expect(facts('{ __schema { queryType { name } } }')).toMatchObject({ introspects: true, introspectionOnly: true, depth: 0 });
    expect(facts('{ __typename }')).toMatchObject({ introspects: false, introspectionOnly: true });
    expect(facts('{ __schema { queryType { name } } users { id } }')).toMatchObject({ introspects: true, introspectionOnly: false });
    expect(facts('{ users { id } }')).toMatchObject({ introspects: false, introspectionOnly: false });
  });

  it('keeps every operation of the document by name, with its kind', () => {
    const analysis = analyseDocument(schema, 'query A { users { id } } mutation B { rename(id: 1, name: "x") { id } }');
    expect(analysis.ok && [...analysis.operations].map(([name, f]) => [name, f.kind])).toEqual([
      ['A', 'query'],
      ['B', 'mutation'],
    ]);
  });

  it('costs one pass per fragment however often it is spread', () => {
    // 2^20 expansions if fragments were inlined; memoised, it is 20 fragments.
    const fragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { friends { ...F${i + 1} ...F${i + 1} } }`).join('\n');
    const query = `${fragments}\nfragment F20 on User { a: id }\n{ users { ...F0 } }`;
    const result = facts(query);
    expect(result.depth).toBe(22);
    expect(result.aliases).toBe(2 ** 20);
  });
});
