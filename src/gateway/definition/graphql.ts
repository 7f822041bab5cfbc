// The `graphql` section of a Classic definition -> GraphqlSpec, at load. proxyOnly ('' and subgraph, which Tyk
// proxies the same way): the schema (SDL) is built once here and an API whose SDL graphql-js cannot build is
// refused, naming `graphql.schema` with the line and column (a subgraph's SDL is built as federation serves it:
// graphql-schema/subgraph.ts). supergraph: the subgraphs of graphql.supergraph
// (name, url, sdl, headers; global_headers added to each) are composed here (graphql-schema/compose.ts) and
// requests are validated against the composed public schema; a composition error refuses the API naming the
// subgraph. executionEngine (Tyk's UDG): the schema is built and graphql.engine compiled (definition/udg.ts); the
// gateway resolves queries from its data sources (graphql/udg-executor.ts). playground {enabled, path}: the
// path the gateway serves the GraphQL playground on (graphql/playground.ts).
import type { GraphqlSection } from '../../domain/graphql.ts';
import { buildSchemaFromSdl, describeSdlProblem } from '../../graphql-schema/build.ts';
import { composeSubgraphs, describeCompositionProblems } from '../../graphql-schema/compose.ts';
import { buildSubgraphSchema } from '../../graphql-schema/subgraph.ts';
import { compileUdg } from './udg.ts';
import { DefinitionError } from './api-spec.ts';
import type { GraphqlSpec, SupergraphSpec } from './graphql-spec.ts';

const PROXIED_MODES = new Set(['', 'proxyOnly', 'subgraph']);

/** Undefined when the section is absent or not enabled: the API is plain HTTP. */
export function compileGraphql(section: GraphqlSection | undefined): GraphqlSpec | undefined {
  if (!section?.enabled) return undefined;
  const playground = playgroundPath(section.playground);
  const compiled = compileSchema(section);
  return playground === undefined ? compiled : { ...compiled, playgroundPath: playground };
}

/**
 * graphql.playground {enabled, path}: the page's path under the listen path, as Tyk Gateway joins it ('' and '/'
 * serve it on the listen path itself); undefined when not enabled. Plain path characters only.
 */
function playgroundPath(playground: Record<string, unknown> | undefined): string | undefined {
  if (playground?.enabled !== true) return undefined;
  const path = playground.path ?? '';
  if (typeof path !== 'string' || !/^[A-Za-z0-9._~/-]*$/.test(path) || path.split('/').some((s) => s === '.' || s === '..')) {
    throw new DefinitionError('graphql.playground.path must be a path of letters, digits, ".", "_", "~", "-" and "/" (no dot-segments)');
  }
  const segments = path.split('/').filter(Boolean);
  return `/${segments.join('/')}`;
}

function compileSchema(section: GraphqlSection): GraphqlSpec {
  const mode = section.execution_mode ?? '';
  const introspectionDisabled = section.introspection?.disabled ?? false;
  if (mode === 'supergraph') return compileSupergraph(section.supergraph, introspectionDisabled);
  if (!PROXIED_MODES.has(mode) && mode !== 'executionEngine')
    throw new DefinitionError(`graphql.execution_mode ${mode} is not supported by this gateway (supported: proxyOnly, subgraph, supergraph, executionEngine)`);
  if (!section.schema) throw new DefinitionError('graphql.schema is required when graphql.enabled is true (the SDL requests are validated against)');
  // A subgraph's schema is its federation SDL: built with the federation definitions and _service/_entities.
  const built = mode === 'subgraph' ? buildSubgraphSchema(section.schema) : buildSchemaFromSdl(section.schema);
  if ('problem' in built) throw new DefinitionError(`graphql.schema: ${describeSdlProblem(built.problem)}`);
  if (mode === 'executionEngine') return { schema: built.schema, introspectionDisabled, udg: compileUdg(section.engine, built.schema) };
  return { schema: built.schema, introspectionDisabled };
}

function compileSupergraph(section: Record<string, unknown> | undefined, introspectionDisabled: boolean): GraphqlSpec {
  const entries = Array.isArray(section?.subgraphs) ? (section.subgraphs as unknown[]) : [];
  if (entries.length === 0) throw new DefinitionError('graphql.supergraph.subgraphs: a supergraph API needs at least one subgraph (name, url, sdl)');
  const globalHeaders = stringRecord(section?.global_headers, 'graphql.supergraph.global_headers');
  const subgraphs: (SupergraphSpec['subgraphs'][number] & { sdl: string })[] = entries.map((entry, i) => {
    const field = `graphql.supergraph.subgraphs[${i}]`;
    const e = (entry ?? {}) as Record<string, unknown>;
    const name = typeof e.name === 'string' && e.name !== '' ? e.name : undefined;
    if (!name) throw new DefinitionError(`${field}.name is required`);
    if (typeof e.sdl !== 'string' || e.sdl === '') throw new DefinitionError(`${field}.sdl is required (the subgraph's federation SDL)`);
    if (typeof e.url !== 'string' || !/^https?:\/\//.test(e.url)) throw new DefinitionError(`${field}.url must be an http(s) URL of the subgraph`);
    const timeout = e.timeout_ms;
    if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0))
      throw new DefinitionError(`${field}.timeout_ms must be a positive integer (milliseconds)`);
    return {
      name,
      url: e.url,
      sdl: e.sdl,
      headers: { ...globalHeaders, ...stringRecord(e.headers, `${field}.headers`) },
      ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
    };
  });
  const composed = composeSubgraphs(subgraphs);
  if ('problems' in composed) throw new DefinitionError(`graphql.supergraph: the subgraphs do not compose: ${describeCompositionProblems(composed.problems)}`);
  const built = buildSchemaFromSdl(composed.publicSdl);
  if ('problem' in built) throw new DefinitionError(`graphql.supergraph: the composed schema does not build: ${describeSdlProblem(built.problem)}`);
  return {
    schema: built.schema,
    introspectionDisabled,
    supergraph: { supergraphSdl: composed.supergraphSdl, subgraphs: subgraphs.map(({ sdl: _sdl, ...rest }) => rest) },
  };
}

function stringRecord(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string'))
    throw new DefinitionError(`${field} must map header names to strings`);
  return value as Record<string, string>;
}
