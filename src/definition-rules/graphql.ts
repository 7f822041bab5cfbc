// The GraphQL section of a Classic API: a served execution mode, an SDL that builds, and for a supergraph written
// without graph_ref, subgraphs that compose (the shared leaf src/graphql-schema/ builds and composes). The gateway
// then compiles the accepted section (gateway/definition/graphql.ts).
import { buildSchemaFromSdl, describeSdlProblem, objectTypeFieldNames } from '../graphql-schema/build.ts';
import { composeSubgraphs, describeCompositionProblems } from '../graphql-schema/compose.ts';
import { buildSubgraphSchema } from '../graphql-schema/subgraph.ts';
import { childPath, forbidden, invalid, required, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';

/** GraphQL modes the gateway serves (gateway/definition/graphql.ts). */
const SERVED_GRAPHQL_MODES = ['', 'proxyOnly', 'subgraph', 'supergraph', 'executionEngine'];

/**
 * An enabled graphql section: a served execution mode and a schema (SDL) the gateway can build. With graph_ref
 * the operator fills the schema (and the supergraph's subgraphs) from the SubGraph or SuperGraph, so none is
 * required here; a supergraph API without graph_ref brings its subgraphs in graphql.supergraph (checked at load).
 */
export function checkGraphql(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const graphql = asObject(spec.graphql);
  if (!graphql || graphql.enabled !== true) return [];
  const field = childPath(base, 'graphql');
  const mode = graphql.execution_mode ?? '';
  if (typeof mode === 'string' && !SERVED_GRAPHQL_MODES.includes(mode)) {
    return [
      forbidden(childPath(field, 'execution_mode'), `${mode} is not supported by this gateway (supported: proxyOnly, subgraph, supergraph, executionEngine)`),
    ];
  }
  const placed = graphql.graph_ref;
  if (typeof spec.graph_ref === 'string' && spec.graph_ref !== '' && typeof placed === 'string' && placed !== '' && placed !== spec.graph_ref) {
    return [invalid(childPath(field, 'graph_ref'), placed, `names another graph than spec.graph_ref (${spec.graph_ref}); set one of them`)];
  }
  if ((typeof spec.graph_ref === 'string' && spec.graph_ref !== '') || (typeof placed === 'string' && placed !== '')) return [];
  if (mode === 'supergraph') return checkSupergraphSection(graphql.supergraph, childPath(field, 'supergraph'));
  const engineProblems = mode === 'executionEngine' ? checkEngineSection(graphql, field) : [];
  if (engineProblems.length > 0) return engineProblems;
  const sdl = graphql.schema;
  if (sdl === undefined || sdl === '')
    return [required(childPath(field, 'schema'), 'the GraphQL schema (SDL) requests are validated against, when graphql.enabled is true')];
  if (typeof sdl !== 'string') return [];
  const built = mode === 'subgraph' ? buildSubgraphSchema(sdl) : buildSchemaFromSdl(sdl);
  if ('problem' in built) return [invalid(childPath(field, 'schema'), '(schema)', describeSdlProblem(built.problem))];
  return mode === 'executionEngine' ? checkRootFields(asObject(graphql.engine)?.data_sources, built.schema, childPath(field, 'engine')) : [];
}

/** Every field a UDG data source names in root_fields is a field of an object type of the schema, as at load. */
function checkRootFields(sources: unknown, schema: Parameters<typeof objectTypeFieldNames>[0], field: string): RuleProblem[] {
  const problems: RuleProblem[] = [];
  (Array.isArray(sources) ? sources : []).forEach((entry, i) => {
    const roots = asObject(entry)?.root_fields;
    (Array.isArray(roots) ? roots : []).forEach((root, j) => {
      const { type, fields } = asObject(root) ?? {};
      const at = `${field}.data_sources[${i}].root_fields[${j}]`;
      const known = typeof type === 'string' ? objectTypeFieldNames(schema, type) : undefined;
      if (!known) problems.push(invalid(childPath(at, 'type'), String(type), 'is not an object type of graphql.schema'));
      else
        for (const name of Array.isArray(fields) ? fields : [])
          if (typeof name !== 'string' || !known.includes(name))
            problems.push(invalid(childPath(at, 'fields'), String(name), `${String(type)} has no such field`));
    });
  });
  return problems;
}

/** A supergraph API written without graph_ref: its subgraphs (name, http(s) url, sdl) must compose, as at load. */
function checkSupergraphSection(value: unknown, field: string): RuleProblem[] {
  const section = asObject(value);
  const entries = Array.isArray(section?.subgraphs) ? (section.subgraphs as unknown[]) : [];
  const subgraphsField = childPath(field, 'subgraphs');
  if (entries.length === 0) return [required(subgraphsField, 'a supergraph API needs its subgraphs (name, url, sdl), or a graph_ref naming a SuperGraph')];
  const errors: RuleProblem[] = [];
  const subgraphs: { name: string; sdl: string }[] = [];
  entries.forEach((entry, i) => {
    const e = asObject(entry) ?? {};
    const at = `${subgraphsField}[${i}]`;
    if (typeof e.name !== 'string' || e.name === '') errors.push(required(childPath(at, 'name'), 'the subgraph name'));
    if (typeof e.sdl !== 'string' || e.sdl === '') errors.push(required(childPath(at, 'sdl'), "the subgraph's federation SDL"));
    if (typeof e.url !== 'string' || !/^https?:\/\//.test(e.url))
      errors.push(invalid(childPath(at, 'url'), String(e.url), 'must be an http(s) URL of the subgraph'));
    if (e.timeout_ms !== undefined && !(typeof e.timeout_ms === 'number' && Number.isInteger(e.timeout_ms) && e.timeout_ms > 0))
      errors.push(invalid(childPath(at, 'timeout_ms'), JSON.stringify(e.timeout_ms), 'must be a positive integer (milliseconds)'));
    if (typeof e.name === 'string' && typeof e.sdl === 'string') subgraphs.push({ name: e.name, sdl: e.sdl });
  });
  if (errors.length > 0) return errors;
  const composed = composeSubgraphs(subgraphs);
  return 'problems' in composed
    ? [invalid(subgraphsField, '(subgraphs)', `the subgraphs do not compose: ${describeCompositionProblems(composed.problems)}`)]
    : [];
}

/**
 * A UDG API's data sources: kind REST or GraphQL with an http(s) config.url, or a tyk:// one (an internal source:
 * an API of the gateway). Kafka (no broker client here) and the legacy v1 type_field_configurations are refused by name.
 */
function checkEngineSection(graphql: Record<string, unknown>, field: string): RuleProblem[] {
  if (Array.isArray(graphql.type_field_configurations) && graphql.type_field_configurations.length > 0)
    return [forbidden(childPath(field, 'type_field_configurations'), 'the UDG v1 configuration is not supported by this gateway (use graphql.engine, UDG v2)')];
  const sources = asObject(graphql.engine)?.data_sources;
  const problems: RuleProblem[] = [];
  (Array.isArray(sources) ? sources : []).forEach((entry, i) => {
    const e = asObject(entry) ?? {};
    const at = `${childPath(field, 'engine')}.data_sources[${i}]`;
    const url = asObject(e.config)?.url;
    if (e.kind === 'Kafka') problems.push(forbidden(childPath(at, 'kind'), 'Kafka data sources are not supported by this gateway (supported: REST, GraphQL)'));
    else if (e.kind !== 'REST' && e.kind !== 'GraphQL') problems.push(invalid(childPath(at, 'kind'), String(e.kind), 'must be REST or GraphQL'));
    else if (typeof url !== 'string' || !/^(https?|tyk):\/\//i.test(url))
      problems.push(invalid(childPath(at, 'config', 'url'), String(url), 'must be an http(s) URL, or tyk://<api name or id>/<path> (an internal data source)'));
  });
  return problems;
}
