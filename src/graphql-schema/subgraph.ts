// The schema a federation subgraph serves, built from its federation SDL (a SubGraph's spec.sdl), as Apollo's
// buildSubgraphSchema does: the SDL alone does not build (its directives are declared by federation, not by it),
// so the federation definitions it uses are added, and so are the fields every subgraph answers:
//   v1 (no @link to federation v2): @key(fields: _FieldSet!), @external, @requires, @provides, @extends, @tag,
//       @inaccessible; `extend type X` with no `type X` in the SDL stands for the type (it is owned elsewhere);
//   v2 (`extend schema @link(url: ".../federation/v2.x", import: [...])`): @link and its link__Import and
//       link__Purpose; each federation element under the name the import gives it (`"@key"`, or
//       `{ name: "@key", as: "@primaryKey" }`), the others under their namespaced names (`@federation__shareable`,
//       or `@<as>__shareable` with the link's `as`);
//   both: `scalar _Any`, `type _Service { sdl: String }`, `union _Entity` of the types with @key, and on the query
//       root `_service: _Service!` and `_entities(representations: [_Any!]!): [_Entity]!`.
// A name the SDL already defines (a full subgraph schema that declares them) is left as the SDL has it. Problems are
// reported as buildSchemaFromSdl reports them (line and column in the SDL). Never throws for what the SDL says.
import { Kind, OperationTypeNode, parse, type ConstValueNode, type DefinitionNode, type DirectiveNode, type DocumentNode } from 'graphql';
import { buildSchemaFromDocument, type BuiltSchema } from './build.ts';

const FEDERATION_V2 = /^https:\/\/specs\.apollo\.dev\/federation\/v2\.\d+$/;
const ALL_LOCATIONS =
  'FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION';

/** A federation element's definition, given the local names of the elements (`@key`, `FieldSet`) it refers to. */
type Definition = (local: (element: string) => string) => string;

const V1_ELEMENTS: Record<string, Definition> = {
  _FieldSet: (n) => `scalar ${n('_FieldSet')}`,
  '@key': (n) => `directive @${n('@key')}(fields: ${n('_FieldSet')}!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE`,
  '@external': (n) => `directive @${n('@external')}(reason: String) on OBJECT | FIELD_DEFINITION`,
  '@requires': (n) => `directive @${n('@requires')}(fields: ${n('_FieldSet')}!) on FIELD_DEFINITION`,
  '@provides': (n) => `directive @${n('@provides')}(fields: ${n('_FieldSet')}!) on FIELD_DEFINITION`,
  '@extends': (n) => `directive @${n('@extends')} on OBJECT | INTERFACE`,
  '@tag': (n) => `directive @${n('@tag')}(name: String!) repeatable on ${ALL_LOCATIONS}`,
  '@inaccessible': (n) => `directive @${n('@inaccessible')} on ${ALL_LOCATIONS}`,
};

const V2_ELEMENTS: Record<string, Definition> = {
  FieldSet: (n) => `scalar ${n('FieldSet')}`,
  Scope: (n) => `scalar ${n('Scope')}`,
  Policy: (n) => `scalar ${n('Policy')}`,
  ContextFieldValue: (n) => `scalar ${n('ContextFieldValue')}`,
  '@key': (n) => `directive @${n('@key')}(fields: ${n('FieldSet')}!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE`,
  '@requires': (n) => `directive @${n('@requires')}(fields: ${n('FieldSet')}!) on FIELD_DEFINITION`,
  '@provides': (n) => `directive @${n('@provides')}(fields: ${n('FieldSet')}!) on FIELD_DEFINITION`,
  '@external': (n) => `directive @${n('@external')}(reason: String) on OBJECT | FIELD_DEFINITION`,
  '@extends': (n) => `directive @${n('@extends')} on OBJECT | INTERFACE`,
  '@shareable': (n) => `directive @${n('@shareable')} repeatable on OBJECT | FIELD_DEFINITION`,
  '@inaccessible': (n) => `directive @${n('@inaccessible')} on ${ALL_LOCATIONS}`,
  '@tag': (n) => `directive @${n('@tag')}(name: String!) repeatable on ${ALL_LOCATIONS}`,
  '@override': (n) => `directive @${n('@override')}(from: String!, label: String) on FIELD_DEFINITION`,
  '@composeDirective': (n) => `directive @${n('@composeDirective')}(name: String!) repeatable on SCHEMA`,
  '@interfaceObject': (n) => `directive @${n('@interfaceObject')} on OBJECT`,
  '@authenticated': (n) => `directive @${n('@authenticated')} on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM`,
  '@requiresScopes': (n) => `directive @${n('@requiresScopes')}(scopes: [[${n('Scope')}!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM`,
  '@policy': (n) => `directive @${n('@policy')}(policies: [[${n('Policy')}!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM`,
  '@context': (n) => `directive @${n('@context')}(name: String!) repeatable on INTERFACE | OBJECT | UNION`,
  '@fromContext': (n) => `directive @${n('@fromContext')}(field: ${n('ContextFieldValue')}) on ARGUMENT_DEFINITION`,
  '@cost': (n) => `directive @${n('@cost')}(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR`,
  '@listSize': (n) =>
    `directive @${n('@listSize')}(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION`,
};

const LINK_ELEMENTS: Record<string, Definition> = {
  '@link': () => 'directive @link(url: String!, as: String, for: link__Purpose, import: [link__Import]) repeatable on SCHEMA',
  link__Import: () => 'scalar link__Import',
  link__Purpose: () => 'enum link__Purpose { SECURITY EXECUTION }',
};

export function buildSubgraphSchema(sdl: string): BuiltSchema {
  return buildSchemaFromDocument(() => withFederation(parse(sdl)));
}

/** The SDL's document with the federation definitions it lacks and the subgraph fields. */
function withFederation(document: DocumentNode): DocumentNode {
  const link = federationLink(document);
  const local = link ? v2Names(link) : (element: string): string => element.replace(/^@/, '');
  const elements = link ? { ...LINK_ELEMENTS, ...V2_ELEMENTS } : V1_ELEMENTS;
  const defined = definedNames(document);
  const definitions = ownedExtensions(document.definitions);
  const added: string[] = [];
  for (const [element, definition] of Object.entries(elements)) {
    const name = element.startsWith('@') ? `@${local(element)}` : local(element);
    if (!defined.has(name)) added.push(definition(local));
  }
  const keyDirectives = new Set([local('@key')]);
  const entities = [
    ...new Set(
      definitions.flatMap((d) =>
        (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && d.directives?.some((x) => keyDirectives.has(x.name.value))
          ? [d.name.value]
          : [],
      ),
    ),
  ];
  if (!defined.has('_Any')) added.push('scalar _Any');
  if (!defined.has('_Service')) added.push('type _Service { sdl: String }');
  if (entities.length > 0 && !defined.has('_Entity')) added.push(`union _Entity = ${entities.join(' | ')}`);
  const root = queryRootName(document);
  const rootFields = `{ _service: _Service!${entities.length > 0 ? ' _entities(representations: [_Any!]!): [_Entity]!' : ''} }`;
  if (!hasField(definitions, root, '_service'))
    added.push(`${definitions.some((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === root) ? 'extend type' : 'type'} ${root} ${rootFields}`);
  return { ...document, definitions: [...definitions, ...parse(added.join('\n')).definitions] };
}

/** The schema-level @link to federation v2, when the SDL has one. */
function federationLink(document: DocumentNode): DirectiveNode | undefined {
  for (const d of document.definitions) {
    if (d.kind !== Kind.SCHEMA_DEFINITION && d.kind !== Kind.SCHEMA_EXTENSION) continue;
    const link = d.directives?.find((x) => x.name.value === 'link' && FEDERATION_V2.test(stringArgument(x, 'url') ?? ''));
    if (link) return link;
  }
  return undefined;
}

/** v2: an imported element is named as imported (or by its `as`), any other is `<namespace>__<name>`. */
function v2Names(link: DirectiveNode): (element: string) => string {
  const namespace = stringArgument(link, 'as') ?? 'federation';
  const imported = new Map<string, string>();
  const imports = link.arguments?.find((a) => a.name.value === 'import')?.value;
  for (const entry of imports?.kind === Kind.LIST ? imports.values : []) {
    if (entry.kind === Kind.STRING) imported.set(entry.value, entry.value);
    if (entry.kind !== Kind.OBJECT) continue;
    const field = (name: string): ConstValueNode | undefined => entry.fields.find((f) => f.name.value === name)?.value as ConstValueNode | undefined;
    const name = field('name');
    const as = field('as');
    if (name?.kind === Kind.STRING) imported.set(name.value, as?.kind === Kind.STRING ? as.value : name.value);
  }
  return (element) => (imported.get(element) ?? `${element.startsWith('@') ? '@' : ''}${namespace}__${element.replace(/^@/, '')}`).replace(/^@/, '');
}

function stringArgument(directive: DirectiveNode, name: string): string | undefined {
  const value = directive.arguments?.find((a) => a.name.value === name)?.value;
  return value?.kind === Kind.STRING ? value.value : undefined;
}

/** Type names (`User`) and directive names (`@key`) the SDL defines itself. */
function definedNames(document: DocumentNode): Set<string> {
  const names = new Set<string>();
  for (const d of document.definitions) {
    if (d.kind === Kind.DIRECTIVE_DEFINITION) names.add(`@${d.name.value}`);
    else if ('name' in d && d.name && !d.kind.endsWith('Extension')) names.add(d.name.value);
  }
  return names;
}

/** `extend type X` (or interface) with no definition of X: the first extension becomes X's definition. */
function ownedExtensions(definitions: readonly DefinitionNode[]): DefinitionNode[] {
  const defined = new Set(
    definitions.flatMap((d) => (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION ? [d.name.value] : [])),
  );
  return definitions.map((d) => {
    if (d.kind === Kind.OBJECT_TYPE_EXTENSION && !defined.has(d.name.value)) {
      defined.add(d.name.value);
      return { ...d, kind: Kind.OBJECT_TYPE_DEFINITION };
    }
    if (d.kind === Kind.INTERFACE_TYPE_EXTENSION && !defined.has(d.name.value)) {
      defined.add(d.name.value);
      return { ...d, kind: Kind.INTERFACE_TYPE_DEFINITION };
    }
    return d;
  });
}

type ObjectTypeNode = Extract<
  DefinitionNode,
  { kind: Kind.OBJECT_TYPE_DEFINITION | Kind.OBJECT_TYPE_EXTENSION | Kind.INTERFACE_TYPE_DEFINITION | Kind.INTERFACE_TYPE_EXTENSION }
>;

function isObjectType(d: DefinitionNode): d is ObjectTypeNode {
  return (
    d.kind === Kind.OBJECT_TYPE_DEFINITION ||
    d.kind === Kind.OBJECT_TYPE_EXTENSION ||
    d.kind === Kind.INTERFACE_TYPE_DEFINITION ||
    d.kind === Kind.INTERFACE_TYPE_EXTENSION
  );
}

function hasField(definitions: readonly DefinitionNode[], type: string, field: string): boolean {
  return definitions.some((d) => isObjectType(d) && d.name.value === type && d.fields?.some((f) => f.name.value === field));
}

/** The query root: `schema { query: X }` when the SDL names one, else Query. */
function queryRootName(document: DocumentNode): string {
  for (const d of document.definitions) {
    if (d.kind !== Kind.SCHEMA_DEFINITION && d.kind !== Kind.SCHEMA_EXTENSION) continue;
    const query = d.operationTypes?.find((o) => o.operation === OperationTypeNode.QUERY);
    if (query) return query.type.name.value;
  }
  return 'Query';
}
