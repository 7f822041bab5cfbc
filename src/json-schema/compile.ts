// Compiling a JSON Schema the way the gateway runs it (ajv, draft-07, every error reported with its data, formats
// from ajv-formats, patterns from api/bounded-regexp.ts and nothing else of ours; a draft-04/06 `$schema`, common
// in Tyk's samples, is read as draft-07), shared by the gateway (validate_json, validateRequest) and the admission
// webhook (which refuses a schema the gateway could not compile). Returns the compiled function or ajv's reason.
// Create one compiler per API definition: ajv keeps what it compiled for as long as the compiler lives.
//
// Every check costs time linear in the body, because the body comes from clients: `pattern` and
// `patternProperties` run on RE2 (ajv's `code.regExp` option, api/bounded-regexp.ts), and a pattern RE2 refuses (a
// backreference, lookaround) makes the schema invalid, its reason naming the pattern; `uniqueItems` is
// unique-items.ts (ajv's own compares every pair of items: quadratic).
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { compileBoundedRegexp } from '../domain/bounded-regexp.ts';
import { uniqueItemsKeyword } from './unique-items.ts';

/** Older drafts Tyk's users declare. */
const OLDER_DRAFTS = /^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/;

// ajv-formats is CommonJS with a `default` property; under Node's ESM interop the import is the module object.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

export type SchemaCompiler = Ajv;

export function newSchemaCompiler(): SchemaCompiler {
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, code: { regExp: re2Patterns } });
  addFormats(ajv);
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsKeyword);
  return ajv;
}

/** ajv's pattern engine: RE2 (unicode always: ajv's `u` flag is RE2's only mode). Throws at compile for a refused pattern. */
const re2Patterns: NonNullable<NonNullable<Options['code']>['regExp']> = Object.assign(
  (pattern: string) => {
    const compiled = compileBoundedRegexp(pattern);
    if (!compiled.ok) throw new Error(`pattern ${JSON.stringify(pattern)} ${compiled.problem}`);
    return compiled.regexp;
  },
  { code: 're2js' },
);

export function compileJsonSchema(compiler: SchemaCompiler, schema: Record<string, unknown>): ValidateFunction | { problem: string } {
  const { $schema, ...rest } = schema;
  const readable = typeof $schema === 'string' && OLDER_DRAFTS.test($schema) ? rest : schema;
  try {
    return compiler.compile(readable);
  } catch (error) {
    return { problem: `is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}` };
  }
}
