import { describe, expect, it } from 'vitest';
import { DefinitionError } from './api-spec.ts';
import { compileGraphql } from './graphql.ts';

const A = { name: 'a', url: 'http://a.example', sdl: 'type Query { a: Int }' };
const B = { name: 'b', url: 'http://b.example', sdl: 'type Query { b: Int }', headers: { 'x-b': '1' }, timeout_ms: 500 };
const supergraph = (section: Record<string, unknown>) => () => compileGraphql({ enabled: true, execution_mode: 'supergraph', supergraph: section });

describe('compileGraphql, supergraph mode', () => {
  it('composes the subgraphs: the public schema for validation, the subgraphs with global headers, their own, and timeouts', () => {
    const spec = compileGraphql({ enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs: [A, B], global_headers: { 'x-all': 'y' } } });
    expect(Object.keys(spec?.schema.getQueryType()?.getFields() ?? {}).sort()).toEqual(['a', 'b']);
    expect(spec?.supergraph?.subgraphs).toEqual([
      { name: 'a', url: 'http://a.example', headers: { 'x-all': 'y' } },
      { name: 'b', url: 'http://b.example', headers: { 'x-all': 'y', 'x-b': '1' }, timeoutMs: 500 },
    ]);
    expect(spec?.supergraph?.supergraphSdl).toContain('@join__graph(name: "b", url: "http://b.example")');
  });

  it('refuses what cannot be served, naming the field', () => {
    expect(supergraph({})).toThrow(new DefinitionError('graphql.supergraph.subgraphs: a supergraph API needs at least one subgraph (name, url, sdl)'));
    expect(supergraph({ subgraphs: [A, { ...B, url: 'tyk://b' }] })).toThrow(
      new DefinitionError('graphql.supergraph.subgraphs[1].url must be an http(s) URL of the subgraph'),
    );
    expect(supergraph({ subgraphs: [{ ...A, sdl: '' }] })).toThrow(
      new DefinitionError("graphql.supergraph.subgraphs[0].sdl is required (the subgraph's federation SDL)"),
    );
    expect(supergraph({ subgraphs: [{ ...B, timeout_ms: 0 }] })).toThrow(
      new DefinitionError('graphql.supergraph.subgraphs[0].timeout_ms must be a positive integer (milliseconds)'),
    );
    expect(supergraph({ subgraphs: [{ ...B, headers: { 'x-b': 1 } }] })).toThrow(
      new DefinitionError('graphql.supergraph.subgraphs[0].headers must map header names to strings'),
    );
    expect(supergraph({ subgraphs: [A, { ...B, sdl: 'type Query { a: String }' }] })).toThrow(/^graphql\.supergraph: the subgraphs do not compose: .*Query\.a/);
  });
});
