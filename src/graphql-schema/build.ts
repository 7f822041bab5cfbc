// Building a GraphQL schema from SDL the way the gateway serves it (a leaf: graphql-js only, nothing of ours),
// shared by the gateway (the `graphql.schema` of a proxy-only API, built once at load) and the admission webhook
// (which refuses an SDL the gateway could not build). Returns the schema, or the first problem with its line and
// column in the SDL (syntax errors from the parser, then the schema rules: unknown types, duplicate fields, ...).
// Never throws for what the SDL says.
import { buildASTSchema, GraphQLError, isObjectType, parse, validateSchema, type DocumentNode, type GraphQLSchema } from 'graphql';
import { validateSDL } from 'graphql/validation/validate.js';

export interface SdlProblem {
  message: string;
  /** 1-based; absent when graphql-js reports no location (e.g. a schema without a Query type). */
  line?: number;
  column?: number;
}

export type BuiltSchema = { schema: GraphQLSchema } | { problem: SdlProblem };

export function buildSchemaFromSdl(sdl: string): BuiltSchema {
  return buildSchemaFromDocument(() => parse(sdl));
}

/** The same, from a document made by `make` (which may throw the parser's GraphQLError). */
export function buildSchemaFromDocument(make: () => DocumentNode): BuiltSchema {
  try {
    const document = make();
    const invalid = validateSDL(document)[0];
    if (invalid) return { problem: problemOf(invalid) };
    const schema = buildASTSchema(document, { assumeValidSDL: true });
    const first = validateSchema(schema)[0];
    return first ? { problem: problemOf(first) } : { schema };
  } catch (error) {
    if (error instanceof GraphQLError) return { problem: problemOf(error) };
    if (error instanceof Error) return { problem: { message: error.message } };
    throw error;
  }
}

/** `line 3, column 5: <message>`, or the message alone. */
export function describeSdlProblem(problem: SdlProblem): string {
  const where = problem.line !== undefined ? `line ${problem.line}, column ${problem.column ?? 1}: ` : '';
  return `${where}${problem.message}`;
}

function problemOf(error: GraphQLError): SdlProblem {
  const location = error.locations?.[0];
  // The parser prefixes "Syntax Error: "; the location says where, the message says what.
  const message = error.message.replace(/^Syntax Error: /, 'syntax error: ');
  return location ? { message, line: location.line, column: location.column } : { message };
}

/** The field names of an object type of the schema; undefined when the name is not an object type. */
export function objectTypeFieldNames(schema: GraphQLSchema, typeName: string): string[] | undefined {
  const type = schema.getType(typeName);
  return isObjectType(type) ? Object.keys(type.getFields()) : undefined;
}
