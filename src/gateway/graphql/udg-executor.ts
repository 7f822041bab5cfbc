// Execution of a Universal Data Graph API (graphql.execution_mode executionEngine, Tyk's UDG): graphql-js executes
// the validated operation against the API's schema with one field resolver. A field with a data source
// (definition/udg.ts) fetches it, its templates rendered from the field's arguments, its parent object and the
// client's headers (udg-template.ts): REST sources are called as configured; a GraphQL source with has_operation
// posts that operation, else the client's selection of the field (its arguments, variables and fragments, without
// the nested fields other sources resolve, with the fields their `{{ .object.x }}` templates read, as Tyk plans them). The field's value is then read from the answer by its field config
// (path; disable_default_mapping: the whole answer; else the answer's property named like the field), as Tyk maps
// it. Fields without a source read their parent by path, else by name.
// Bounds: identical fetches of one request are made once (a list of parents asking the same URL costs one call); at
// most graphql.udg_max_data_source_calls distinct calls per request, each aborted after
// graphql.subgraph_timeout_ms and read up to MAX_ANSWER_BYTES; the internal requests a request leads to count on its
// budget of calls. A failed call (network, timeout, non-2xx, non-JSON, a GraphQL source's errors) nulls that field
// with an error naming its path: the rest is returned.
// Internal sources (`tyk://<api name or id>/<path>`, Tyk's internal data sources) are sent through the named API's
// pipeline in memory (looping/internal-request.ts), one loop deeper than the client's request, with the same bounds.
// Never logs queries, variables, arguments or answers.
import {
  GraphQLError,
  Kind,
  TypeInfo,
  execute,
  print,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import type { UdgDataSource, UdgSpec } from '../definition/graphql-spec.ts';
import { InternalRequestError, type InternalCaller } from '../looping/internal-request.ts';
import { parseLoopUrl } from '../looping/loop-url.ts';
import type { ProxyContext } from '../pipeline/contract.ts';
import { executionAnswer, type GraphqlErrorEntry } from './error-reply.ts';
import { objectFieldsRead, pluck, renderTemplate, renderUrlTemplate, type TemplateValues } from './udg-template.ts';

/** Largest answer read from one data source call. */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export interface UdgLimits {
  maxCalls: number;
  timeoutMs: number;
  /** Sends tyk:// sources through the gateway's own APIs; without it they fail as unreachable. */
  internal?: InternalCaller;
}

export interface UdgExecutor {
  execute(
    document: DocumentNode,
    variables: Record<string, unknown>,
    operationName: string | undefined,
    requestHeaders: Record<string, string | string[] | undefined>,
    /** The client's request: internal sources continue its loop depth. */
    origin?: ProxyContext,
  ): Promise<{ data?: unknown; errors?: GraphqlErrorEntry[] }>;
}

interface RequestState {
  /** Distinct calls made: this request's and those of the internal requests it led to (LoopState.udgCalls). */
  calls: { made: number };
  fetches: Map<string, Promise<unknown>>;
  requestHeaders: Record<string, string | string[] | undefined>;
  origin: ProxyContext | undefined;
}

/** Objects answered by a GraphQL source: their properties are keyed by the client's response keys (aliases). */
const byResponseKey = new WeakSet<object>();

export function udgExecutor(schema: GraphQLSchema, spec: UdgSpec, limits: UdgLimits): UdgExecutor {
  const resolver: GraphQLFieldResolver<unknown, RequestState> = (parent, args, state, info) => {
    const key = `${info.parentType.name}.${info.fieldName}`;
    const config = spec.fields.get(key);
    const source = spec.sources.get(key);
    if (!source) {
      if (config && config.path.length > 0) return pluck(parent, config.path);
      const own = parent !== null && typeof parent === 'object' && byResponseKey.has(parent) ? info.path.key : info.fieldName;
      return pluck(parent, [String(own)]);
    }
    const values: TemplateValues = { arguments: args as Record<string, unknown>, object: parent, requestHeaders: state.requestHeaders };
    return fetchSource(source, values, state, info).then((answer) => {
      if (source.kind === 'GraphQL' && !source.operation) return answer;
      if (config && config.path.length > 0) return pluck(answer, config.path);
      return config?.disableDefaultMapping ? answer : pluck(answer, [info.fieldName]);
    });
  };

  const fetchSource = (source: UdgDataSource, values: TemplateValues, state: RequestState, info: GraphQLResolveInfo): Promise<unknown> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of Object.entries({ ...spec.globalHeaders, ...source.headers })) headers[name.toLowerCase()] = renderTemplate(value, values);
    const url = new URL(renderUrlTemplate(source.url, values));
    for (const { name, value } of source.query) url.searchParams.append(name, renderTemplate(value, values));
    let body: string | undefined;
    if (source.kind === 'GraphQL') {
      headers['content-type'] = 'application/json';
      body = source.operation
        ? JSON.stringify({ query: source.operation, variables: source.variables ? parseVariables(renderTemplate(source.variables, values), source) : {} })
        : JSON.stringify(selectionRequest(info));
    } else if (source.body !== undefined) {
      body = renderTemplate(source.body, values);
      headers['content-type'] ??= 'application/json';
    }
    const fingerprint = JSON.stringify([source.method, url.href, headers, body ?? null]);
    const known = state.fetches.get(fingerprint);
    if (known) return known.then((answer) => graphqlValue(answer, source, info));
    if (++state.calls.made > limits.maxCalls)
      throw new GraphQLError(`the query needs more than ${limits.maxCalls} data source calls (graphql.udg_max_data_source_calls)`);
    const call = url.protocol === 'tyk:' ? callInternal(source, url, headers, body, state, limits) : callSource(source, url, headers, body, limits.timeoutMs);
    state.fetches.set(fingerprint, call);
    return call.then((answer) => graphqlValue(answer, source, info));
  };

  /** A GraphQL source's answer without has_operation: its errors fail the field, else data[response key]. */
  const graphqlValue = (answer: unknown, source: UdgDataSource, info: GraphQLResolveInfo): unknown => {
    if (source.kind !== 'GraphQL' || source.operation) return answer;
    const reply = (answer ?? {}) as { data?: Record<string, unknown> | null; errors?: { message?: unknown }[] };
    const value = reply.data?.[info.path.key as string];
    if ((value === undefined || value === null) && Array.isArray(reply.errors) && reply.errors.length > 0)
      throw new GraphQLError(`data source ${source.name}: ${reply.errors.map((e) => String(e.message)).join('; ')}`);
    markResponseKeys(value);
    return value;
  };

  /** The client's selection of this field as an operation for the source: only the variables and fragments it uses. */
  const selectionRequest = (info: GraphQLResolveInfo): { query: string; variables: Record<string, unknown> } => {
    const used = new Set<string>();
    const fragments = new Set<string>();
    const pending: ASTNode[] = info.fieldNodes.map((n) => prune(n, info.parentType.name));
    const fields = pending.slice();
    const fragmentTexts: string[] = [];
    while (pending.length > 0) {
      visit(pending.pop()!, {
        Variable: (node) => void used.add(node.name.value),
        FragmentSpread: (node) => {
          const name = node.name.value;
          const fragment = info.fragments[name];
          if (fragments.has(name) || !fragment) return;
          fragments.add(name);
          const pruned = prune(fragment, fragment.typeCondition.name.value);
          pending.push(pruned);
          fragmentTexts.push(print(pruned));
        },
      });
    }
    const definitions = (info.operation.variableDefinitions ?? []).filter((d: VariableDefinitionNode) => used.has(d.variable.name.value));
    const kind = info.parentType === schema.getMutationType() ? 'mutation' : 'query';
    const head = definitions.length > 0 ? `${kind}(${definitions.map((d) => print(d)).join(', ')})` : kind;
    const query = [`${head} { ${fields.map((f) => print(f)).join(' ')} }`, ...fragmentTexts].join('\n');
    return { query, variables: Object.fromEntries([...used].filter((v) => v in info.variableValues).map((v) => [v, info.variableValues[v]])) };
  };

  /** Drops the nested fields that other data sources resolve (the source would not know them), selecting what they read instead. */
  const prune = <T extends ASTNode>(node: T, typeName: string): T => {
    const typeInfo = new TypeInfo(schema, schema.getType(typeName) ?? undefined);
    const needed: Set<string>[] = [];
    return visit(
      node,
      visitWithTypeInfo(typeInfo, {
        Field: (field: FieldNode) => {
          if (field === node) return undefined;
          const parent = typeInfo.getParentType();
          const source = parent ? spec.sources.get(`${parent.name}.${field.name.value}`) : undefined;
          if (!source) return undefined;
          for (const name of objectFieldsRead(templatesOf(source))) needed.at(-1)?.add(name);
          return null;
        },
        SelectionSet: {
          enter: () => void needed.push(new Set()),
          leave: (set) => {
            const wanted = [...needed.pop()!];
            const present = new Set(set.selections.flatMap((s) => (s.kind === Kind.FIELD && !s.alias ? [s.name.value] : [])));
            const added = wanted.filter((name) => !present.has(name)).map(fieldNamed);
            const selections = [...set.selections, ...added];
            return { ...set, selections: selections.length > 0 ? selections : [fieldNamed('__typename')] };
          },
        },
      }),
    );
  };

  return {
    async execute(document, variables, operationName, requestHeaders, origin) {
      // An internal request (a tyk:// source's) counts on its client request's calls: one budget for the whole tree,
      // else each loop level would make its own udg_max_data_source_calls, that many times more per level.
      const state: RequestState = { calls: origin?.loop?.udgCalls ?? { made: 0 }, fetches: new Map(), requestHeaders, origin };
      const result = await execute({
        schema,
        document,
        variableValues: variables,
        contextValue: state,
        fieldResolver: resolver,
        ...(operationName ? { operationName } : {}),
      });
      return executionAnswer(result);
    },
  };
}

function fieldNamed(name: string): FieldNode {
  return { kind: Kind.FIELD, name: { kind: Kind.NAME, value: name } };
}

function templatesOf(source: UdgDataSource): string[] {
  return [source.url, ...Object.values(source.headers), ...source.query.map((q) => q.value), source.body ?? '', source.variables ?? ''];
}

async function callSource(source: UdgDataSource, url: URL, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: source.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'the request failed';
    throw new GraphQLError(`data source ${source.name}: ${reason}`);
  }
  return sourceAnswer(source, response.status, await boundedText(response, source));
}

/** A tyk:// source: the named API's answer, through its pipeline in memory. */
async function callInternal(
  source: UdgDataSource,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  { origin, calls }: RequestState,
  limits: UdgLimits,
): Promise<unknown> {
  const loopUrl = parseLoopUrl(url.href);
  if (!loopUrl || !origin || !limits.internal)
    throw new GraphQLError(`data source ${source.name}: no API of this gateway answers ${url.protocol}//${url.host}`);
  try {
    const init = {
      method: source.method,
      headers,
      timeoutMs: limits.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      udgCalls: calls,
      ...(body !== undefined ? { body } : {}),
    };
    const answer = await limits.internal(origin, loopUrl, init);
    return sourceAnswer(source, answer.status, answer.body.toString('utf8'));
  } catch (error) {
    if (error instanceof GraphQLError) throw error;
    throw new GraphQLError(`data source ${source.name}: ${error instanceof InternalRequestError ? error.message : 'the request failed'}`);
  }
}

function sourceAnswer(source: UdgDataSource, status: number, text: string): unknown {
  if (status < 200 || status > 299) throw new GraphQLError(`data source ${source.name} answered ${status}`);
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    throw new GraphQLError(`data source ${source.name} answered a body that is not JSON`);
  }
}

async function boundedText(response: Response, source: UdgDataSource): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return '';
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      throw new GraphQLError(`data source ${source.name} answered more than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseVariables(text: string, source: UdgDataSource): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GraphQLError(`data source ${source.name}: config.variables is not JSON once rendered`);
  }
}

function markResponseKeys(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const at = pending.pop();
    if (at === null || typeof at !== 'object') continue;
    if (!Array.isArray(at)) byResponseKey.add(at);
    for (const child of Object.values(at)) pending.push(child);
  }
}
