// What the gateway needs to know about one query text, worked out once per text and API schema (document-cache.ts
// keeps it): the parsed document or its syntax/validation errors (graphql-js `parse` + `validate`, all specified
// rules), and per operation its kind, depth, alias count, whether it is introspection, and the schema fields it
// selects (type and field, for allowed_types / restricted_types). Per-key decisions (graphql-limits.ts) only compare
// these numbers and lists; nothing here depends on who sends the query.
//
// Depth: a root field is 1 deep, each field nested in its selection one more; fragments count where they are spread.
// Introspection fields (`__schema`, `__type` and what they select) and `__typename` are left out of depth, aliases
// and fields. Fragment facts are computed once per fragment (memoised), so a document that spreads the same
// fragment many times costs no more than its text. A query nested past the body depth limit is refused before
// parsing (query-nesting.ts): the parser and the shape walk recurse; a fragment chain too long for the stack is
// answered as an error too.
import {
  GraphQLError,
  Kind,
  TypeInfo,
  getNamedType,
  parse,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { queryNestingProblem } from './query-nesting.ts';

export interface SelectedField {
  type: string;
  field: string;
}

export interface OperationFacts {
  readonly node: OperationDefinitionNode;
  readonly kind: 'query' | 'mutation' | 'subscription';
  readonly depth: number;
  readonly aliases: number;
  /** Selects `__schema` or `__type` at its root. */
  readonly introspects: boolean;
  /** Every root field is introspection (`__schema`, `__type`, `__typename`): the gateway answers it from its schema. */
  readonly introspectionOnly: boolean;
  /** Distinct schema fields selected (introspection fields left out), in document order. */
  readonly fields: readonly SelectedField[];
}

export type DocumentAnalysis =
  { ok: false; errors: readonly GraphQLError[] } | { ok: true; document: DocumentNode; operations: ReadonlyMap<string | undefined, OperationFacts> };

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

export function analyseDocument(schema: GraphQLSchema, query: string): DocumentAnalysis {
  const nesting = queryNestingProblem(query);
  if (nesting) return { ok: false, errors: [new GraphQLError(nesting)] };
  try {
    return analyseBounded(schema, query);
  } catch (error) {
    // A chain of fragments each spreading the next nests without nesting its text: graphql-js's validation and the
    // shape walk recurse along it. The stack running out is the client's query, answered like a syntax error.
    if (error instanceof RangeError) return { ok: false, errors: [new GraphQLError(`the query nests too deeply to analyse (${error.message})`)] };
    throw error;
  }
}

function analyseBounded(schema: GraphQLSchema, query: string): DocumentAnalysis {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    if (error instanceof GraphQLError) return { ok: false, errors: [error] };
    throw error;
  }
  const errors = validate(schema, document);
  if (errors.length > 0) return { ok: false, errors };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const shapes = new ShapeMemo(fragments);
  const operations = new Map<string | undefined, OperationFacts>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const roots = rootFieldNames(definition.selectionSet, fragments);
    const shape = shapes.of(definition.selectionSet);
    operations.set(definition.name?.value, {
      node: definition,
      kind: definition.operation,
      depth: shape.depth,
      aliases: shape.aliases,
      introspects: roots.some((name) => INTROSPECTION_ROOTS.has(name)),
      introspectionOnly: roots.every((name) => name.startsWith('__')),
      fields: selectedFields(schema, definition, fragments),
    });
  }
  return { ok: true, document, operations };
}

/** Names of the fields an operation selects at its root, through fragments and inline fragments. */
function rootFieldNames(selectionSet: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): string[] {
  const names: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) names.push(...rootFieldNames(selection.selectionSet, fragments, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) names.push(...rootFieldNames(fragment.selectionSet, fragments, seen));
    }
  }
  return names;
}

interface Shape {
  depth: number;
  aliases: number;
}

/** Depth and alias count of selection sets, each named fragment computed once. Validation ruled out cycles. */
class ShapeMemo {
  readonly #fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly #byFragment = new Map<string, Shape>();

  constructor(fragments: ReadonlyMap<string, FragmentDefinitionNode>) {
    this.#fragments = fragments;
  }

  of(selectionSet: SelectionSetNode): Shape {
    let depth = 0;
    let aliases = 0;
    for (const selection of selectionSet.selections) {
      let inner: Shape;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        const below = selection.selectionSet ? this.of(selection.selectionSet) : { depth: 0, aliases: 0 };
        inner = { depth: below.depth + 1, aliases: below.aliases + (selection.alias ? 1 : 0) };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = this.of(selection.selectionSet);
      } else {
        inner = this.#fragment(selection.name.value);
      }
      depth = Math.max(depth, inner.depth);
      aliases += inner.aliases;
    }
    return { depth, aliases };
  }

  #fragment(name: string): Shape {
    const known = this.#byFragment.get(name);
    if (known) return known;
    const fragment = this.#fragments.get(name);
    const shape = fragment ? this.of(fragment.selectionSet) : { depth: 0, aliases: 0 };
    this.#byFragment.set(name, shape);
    return shape;
  }
}

/** The schema fields (parent type, field) an operation and the fragments it reaches select, introspection left out. */
function selectedFields(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): SelectedField[] {
  const found = new Map<string, SelectedField>();
  const typeInfo = new TypeInfo(schema);
  const reached = new Set<string>();
  const pending: (OperationDefinitionNode | FragmentDefinitionNode)[] = [operation];
  let introspectionDepth = 0;
  while (pending.length > 0) {
    const node = pending.pop()!;
    visit(
      node,
      visitWithTypeInfo(typeInfo, {
        Field: {
          enter(field) {
            if (field.name.value.startsWith('__') || introspectionDepth > 0) {
              introspectionDepth++;
              return;
            }
            const parent = typeInfo.getParentType();
            if (!parent) return;
            const type = getNamedType(parent).name;
            const key = `${type}.${field.name.value}`;
            if (!found.has(key)) found.set(key, { type, field: field.name.value });
          },
          leave(field) {
            if (field.name.value.startsWith('__') || introspectionDepth > 0) introspectionDepth = Math.max(0, introspectionDepth - 1);
          },
        },
        FragmentSpread(spread) {
          const name = spread.name.value;
          if (introspectionDepth > 0 || reached.has(name)) return;
          reached.add(name);
          const fragment = fragments.get(name);
          if (fragment) pending.push(fragment);
        },
      }),
    );
  }
  return [...found.values()];
}
