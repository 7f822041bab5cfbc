// A federation subgraph server for tests: graphql-js over HTTP on loopback (POST JSON) serving a subgraph's SDL
// with the small part of the federation subgraph protocol a gateway calls: `_service { sdl }` and
// `_entities(representations)` (each representation resolved by the entity's `resolveReference`). Federation v1
// SDLs (`extend type ... @key`, `@external`) and v2 SDLs (`extend schema @link(...)`, `@shareable`) both build: the
// federation directives are declared here, not by the SDL. `hang()` makes it stop answering (requests stay open
// until the test ends), to show the gateway does not wait forever. Every request body is recorded.
import { buildASTSchema, graphql, Kind, parse, type GraphQLSchema, type DocumentNode } from 'graphql';
import { startUpstream, type Upstream } from './upstream.ts';

const FEDERATION_PRELUDE = `
scalar _Any
scalar FieldSet
scalar link__Import
type _Service { sdl: String }
directive @key(fields: FieldSet!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE
directive @external on FIELD_DEFINITION | OBJECT
directive @requires(fields: FieldSet!) on FIELD_DEFINITION
directive @provides(fields: FieldSet!) on FIELD_DEFINITION
directive @extends on OBJECT | INTERFACE
directive @shareable repeatable on OBJECT | FIELD_DEFINITION
directive @link(url: String!, import: [link__Import]) repeatable on SCHEMA
`;

export type EntityResolvers = Record<string, (representation: Record<string, unknown>) => unknown>;

export interface Subgraph extends Upstream {
  /** Stop answering: requests from now on are never answered. */
  hang(): void;
}

export async function startSubgraph(sdl: string, rootValue: Record<string, unknown>, entities: EntityResolvers): Promise<Subgraph> {
  const schema = executableSchema(sdl, Object.keys(entities));
  let hanging = false;
  const root = {
    ...rootValue,
    _service: () => ({ sdl }),
    _entities: ({ representations }: { representations: Record<string, unknown>[] }) =>
      representations.map((r) => {
        const resolve = entities[r.__typename as string];
        const found = resolve?.(r);
        return found === undefined || found === null ? null : { __typename: r.__typename, ...found };
      }),
  };
  const upstream = await startUpstream((_req, res, body) => {
    if (hanging) return true;
    let params: { query: string; variables?: Record<string, unknown>; operationName?: string };
    try {
      params = JSON.parse(body.toString()) as typeof params;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"errors":[{"message":"subgraph: not JSON"}]}');
      return true;
    }
    void graphql({ schema, source: params.query, rootValue: root, variableValues: params.variables ?? {}, operationName: params.operationName ?? null }).then(
      (result) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      },
    );
    return true;
  });
  return Object.assign(upstream, {
    hang: () => {
      hanging = true;
    },
  });
}

/** The subgraph's SDL with the federation prelude, `extend type` turned into types, and the _entities root field. */
function executableSchema(sdl: string, entityTypes: string[]): GraphQLSchema {
  const definitions = parse(sdl).definitions.filter((d) => d.kind !== Kind.SCHEMA_EXTENSION);
  const asTypes = definitions.map((d) => (d.kind === Kind.OBJECT_TYPE_EXTENSION && d.name.value !== 'Query' ? { ...d, kind: Kind.OBJECT_TYPE_DEFINITION } : d));
  const hasQuery = asTypes.some((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Query');
  const extra = `
${FEDERATION_PRELUDE}
${entityTypes.length > 0 ? `union _Entity = ${entityTypes.join(' | ')}` : ''}
${hasQuery ? 'extend type Query' : 'type Query'} {
  _service: _Service!
  ${entityTypes.length > 0 ? '_entities(representations: [_Any!]!): [_Entity]!' : ''}
}`;
  const document: DocumentNode = { kind: parse(extra).kind, definitions: [...(asTypes as DocumentNode['definitions']), ...parse(extra).definitions] };
  return buildASTSchema(document, { assumeValidSDL: true });
}
