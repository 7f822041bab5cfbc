// The engine of a Universal Data Graph API (graphql.execution_mode executionEngine, Tyk's UDG) -> UdgSpec, at
// load: graphql.engine.data_sources[] (kind REST or GraphQL, root_fields[{type, fields}], config) attach a data
// source to each (type, field) they list, graphql.engine.field_configs[] (type_name, field_name,
// disable_default_mapping, path) say where a field's value is read, graphql.engine.global_headers[{key, value}]
// are sent to every source. Every field a data source names must exist in the schema. A `tyk://<api>/<path>` URL is
// an internal source (Tyk's `internal: true`): served by that API of this gateway, in memory
// (looping/internal-request.ts). Refused by name: Kafka sources (no broker client here).
import type { GraphQLSchema } from 'graphql';
import { isObjectType } from 'graphql';
import { DefinitionError } from './api-spec.ts';
import type { UdgDataSource, UdgFieldConfig, UdgSpec } from './graphql-spec.ts';

export function compileUdg(engine: Record<string, unknown> | undefined, schema: GraphQLSchema): UdgSpec {
  const sources = new Map<string, UdgDataSource>();
  const entries = Array.isArray(engine?.data_sources) ? (engine.data_sources as unknown[]) : [];
  entries.forEach((entry, i) => {
    const field = `graphql.engine.data_sources[${i}]`;
    const source = dataSource(asRecord(entry), field);
    const rootFields = Array.isArray(asRecord(entry).root_fields) ? (asRecord(entry).root_fields as unknown[]) : [];
    rootFields.forEach((root, j) => {
      const { type, fields } = asRecord(root);
      const at = `${field}.root_fields[${j}]`;
      const objectType = typeof type === 'string' ? schema.getType(type) : undefined;
      if (!isObjectType(objectType)) throw new DefinitionError(`${at}.type ${String(type)} is not an object type of graphql.schema`);
      for (const name of Array.isArray(fields) ? fields : []) {
        if (typeof name !== 'string' || !objectType.getFields()[name])
          throw new DefinitionError(`${at}.fields: ${objectType.name} has no field ${String(name)}`);
        sources.set(`${objectType.name}.${name}`, source);
      }
    });
  });
  const fields = new Map<string, UdgFieldConfig>();
  const configs = Array.isArray(engine?.field_configs) ? (engine.field_configs as unknown[]) : [];
  configs.forEach((entry, i) => {
    const e = asRecord(entry);
    const path = Array.isArray(e.path) ? e.path.filter((p): p is string => typeof p === 'string' && p !== '') : [];
    if (typeof e.type_name !== 'string' || typeof e.field_name !== 'string')
      throw new DefinitionError(`graphql.engine.field_configs[${i}] needs type_name and field_name`);
    fields.set(`${e.type_name}.${e.field_name}`, { disableDefaultMapping: e.disable_default_mapping === true, path });
  });
  const globalHeaders: Record<string, string> = {};
  for (const h of Array.isArray(engine?.global_headers) ? (engine.global_headers as unknown[]) : []) {
    const { key, value } = asRecord(h);
    if (typeof key === 'string' && typeof value === 'string') globalHeaders[key] = value;
  }
  return { sources, fields, globalHeaders };
}

function dataSource(e: Record<string, unknown>, field: string): UdgDataSource {
  const name = typeof e.name === 'string' && e.name !== '' ? e.name : field;
  const config = asRecord(e.config);
  if (e.kind !== 'REST' && e.kind !== 'GraphQL')
    throw new DefinitionError(`${field}.kind ${String(e.kind)} is not supported by this gateway (supported: REST, GraphQL)`);
  const url = config.url;
  if (typeof url !== 'string' || url === '') throw new DefinitionError(`${field}.config.url is required`);
  if (!/^(https?|tyk):\/\//i.test(url)) throw new DefinitionError(`${field}.config.url must be an http(s) or tyk:// URL`);
  const method = typeof config.method === 'string' && config.method !== '' ? config.method.toUpperCase() : e.kind === 'GraphQL' ? 'POST' : 'GET';
  const headers = asStringRecord(config.headers);
  if (e.kind === 'REST') {
    const query = (Array.isArray(config.query) ? config.query : [])
      .map((q) => asRecord(q))
      .filter((q): q is { name: string; value: string } => typeof q.name === 'string' && typeof q.value === 'string')
      .map(({ name: n, value }) => ({ name: n, value }));
    return { name, kind: 'REST', url, method, headers, query, ...(typeof config.body === 'string' && config.body !== '' ? { body: config.body } : {}) };
  }
  const operation = config.has_operation === true && typeof config.operation === 'string' ? config.operation : undefined;
  const variables = typeof config.variables === 'string' ? config.variables : config.variables ? JSON.stringify(config.variables) : undefined;
  return { name, kind: 'GraphQL', url, method, headers, query: [], ...(operation ? { operation } : {}), ...(variables ? { variables } : {}) };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function asStringRecord(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(asRecord(value)).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
