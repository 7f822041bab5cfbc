// buildSubgraphSchema: the federation SDLs of the shipped samples (v1 `extend type Query`, v2 `@link`) build, with
// the subgraph fields a gateway calls; the SDL's own mistakes are still refused with their line.
import { readFileSync } from 'node:fs';
import { parse, printSchema, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { describeSdlProblem } from './build.ts';
import { buildSubgraphSchema } from './subgraph.ts';

/** spec.sdl of the SubGraph in a shipped sample file. */
function sampleSdl(file: string): string {
  const subgraph = parseAllDocuments(readFileSync(new URL(`../../config/samples/federation/${file}`, import.meta.url), 'utf8'))
    .map((d) => d.toJS() as { kind: string; spec: { sdl: string } })
    .find((d) => d.kind === 'SubGraph');
  return subgraph!.spec.sdl;
}

function built(sdl: string): ReturnType<typeof buildSubgraphSchema> & object {
  return buildSubgraphSchema(sdl);
}

function problem(sdl: string): string {
  const result = built(sdl);
  return 'problem' in result ? describeSdlProblem(result.problem) : 'ok';
}

describe('buildSubgraphSchema', () => {
  it('builds the shipped v1 sample (extend type Query without a base, @key) with _service and _entities', () => {
    const result = built(sampleSdl('users_subgraph.yaml'));
    if ('problem' in result) throw new Error(describeSdlProblem(result.problem));
    const printed = printSchema(result.schema);
    expect(printed).toContain('union _Entity = User');
    expect(printed).toMatch(/_entities\(representations: \[_Any!\]!\): \[_Entity\]!/);
    expect(validate(result.schema, parse('{ me { id name } _service { sdl } _entities(representations: []) { ... on User { name } } }'))).toEqual([]);
  });

  it('builds the shipped v2 sample (@link importing @key), and namespaced elements it did not import', () => {
    expect(problem(sampleSdl('reviews_subgraph.yaml'))).toBe('ok');
    const sdl =
      'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: [{ name: "@key", as: "@id" }])\ntype Query { a: T @federation__shareable }\ntype T @id(fields: "x") { x: ID! }';
    const result = built(sdl);
    if ('problem' in result) throw new Error(describeSdlProblem(result.problem));
    expect(printSchema(result.schema)).toContain('union _Entity = T');
  });

  it('v1: an entity owned by another subgraph (extend type with @external key) is an entity here', () => {
    expect(problem('extend type User @key(fields: "id") {\n  id: ID! @external\n  reviews: [String]\n}\ntype Query { x: Int }')).toBe('ok');
  });

  it('keeps what a full subgraph schema declares itself', () => {
    expect(
      problem(
        'scalar _FieldSet\nscalar _Any\ndirective @key(fields: _FieldSet!) repeatable on OBJECT\ntype Query { u: U }\ntype U @key(fields: "id") { id: ID }',
      ),
    ).toBe('ok');
  });

  it("still refuses the SDL's own mistakes, naming the line; v2 does not declare v2 names it did not import", () => {
    expect(problem('extend type Query {\n  me: Userr\n}')).toMatch(/^line 2, column 7: Unknown type "Userr"\./);
    expect(problem('extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])\ntype Query { a: Int @shareable }')).toBe(
      'line 2, column 21: Unknown directive "@shareable".',
    );
  });
});
