// The admission rules of UDG definitions (graphql.execution_mode executionEngine, graphql.ts checkEngineSection):
// target_url may be empty, REST and GraphQL sources are accepted, what the gateway does not build is refused naming
// its own field (never the misleading proxy.target_url).
import { describe, expect, it } from 'vitest';
import { classicDefinitionProblems } from './classic-definition.ts';

const udg = (engine: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'udg',
  api_id: 'udg',
  proxy: { listen_path: '/udg', target_url: '' },
  graphql: { enabled: true, execution_mode: 'executionEngine', schema: 'type Query { a: String }', engine, ...extra },
});
const source = (kind: string, config: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  kind,
  name: 's',
  root_fields: [{ type: 'Query', fields: ['a'] }],
  config,
  ...more,
});
const fields = (spec: Record<string, unknown>) => classicDefinitionProblems(spec, '').map((p) => p.field);

describe('UDG definition rules', () => {
  it('accepts REST and GraphQL data sources without proxy.target_url, as Tyk Operator samples write them', () => {
    expect(classicDefinitionProblems(udg({ data_sources: [source('REST', { url: 'http://h/a' }), source('GraphQL', { url: 'https://h/g' })] }), '')).toEqual(
      [],
    );
  });

  it('refuses a Kafka data source naming its kind', () => {
    expect(fields(udg({ data_sources: [source('Kafka', { broker_addresses: ['k:9092'] })] }))).toEqual(['graphql.engine.data_sources[0].kind']);
  });

  it("accepts internal data sources (a tyk:// URL, Tyk's internal: true) and refuses other schemes naming config.url", () => {
    const internal = [source('REST', { url: 'tyk://users/u' }, { internal: true }), source('GraphQL', { url: 'tyk://graph/query' })];
    expect(fields(udg({ data_sources: internal }))).toEqual([]);
    expect(fields(udg({ data_sources: [source('REST', { url: 'ftp://h/a' })] }))).toEqual(['graphql.engine.data_sources[0].config.url']);
  });

  it('refuses the v1 type_field_configurations by name', () => {
    expect(fields(udg({}, { type_field_configurations: [{ type_name: 'Query', field_name: 'a' }] }))).toEqual(['graphql.type_field_configurations']);
  });

  it('refuses root_fields naming a type or field the schema does not have, as the gateway does at load', () => {
    const wrong = {
      data_sources: [
        {
          ...source('REST', { url: 'http://h' }),
          root_fields: [
            { type: 'Query', fields: ['b'] },
            { type: 'Nope', fields: ['a'] },
          ],
        },
      ],
    };
    expect(fields(udg(wrong))).toEqual(['graphql.engine.data_sources[0].root_fields[0].fields', 'graphql.engine.data_sources[0].root_fields[1].type']);
  });

  it('still requires proxy.target_url of a proxy-only GraphQL API', () => {
    const proxied = { ...udg({}), graphql: { enabled: true, execution_mode: 'proxyOnly', schema: 'type Query { a: String }' } };
    expect(fields(proxied)).toEqual(['proxy.target_url']);
  });
});
