// The `graphql` section of a Classic definition -> GraphqlSpec, at load: the schema (SDL) is built once here and an
// API whose SDL graphql-js cannot build is refused, naming `graphql.schema` with the line and column. Only the
// proxy-only execution modes are served (proxyOnly, '' and subgraph, which the anchor proxies the same way);
// executionEngine and supergraph are refused rather than proxied without their engine.
import type { GraphqlSection } from '../../api/graphql.ts';
import { buildSchemaFromSdl, describeSdlProblem } from '../../graphql-schema/build.ts';
import { DefinitionError, type GraphqlSpec } from './api-spec.ts';

const PROXIED_MODES = new Set(['', 'proxyOnly', 'subgraph']);

/** Undefined when the section is absent or not enabled: the API is plain HTTP. */
export function compileGraphql(section: GraphqlSection | undefined): GraphqlSpec | undefined {
  if (!section?.enabled) return undefined;
  const mode = section.execution_mode ?? '';
  if (!PROXIED_MODES.has(mode)) throw new DefinitionError(`graphql.execution_mode ${mode} is not supported by this gateway yet (supported: proxyOnly, subgraph)`);
  if (!section.schema) throw new DefinitionError('graphql.schema is required when graphql.enabled is true (the SDL requests are validated against)');
  const built = buildSchemaFromSdl(section.schema);
  if ('problem' in built) throw new DefinitionError(`graphql.schema: ${describeSdlProblem(built.problem)}`);
  return { schema: built.schema, introspectionDisabled: section.introspection?.disabled ?? false };
}
