// Turning what a user gave as an OpenAPI/Swagger document into one self-contained object: the text is JSON or
// YAML (`yaml`, aliases capped so an alias bomb is refused), or an already decoded value; then every `$ref`
// inside the document (`#/...`: path items, parameters, schemas) is resolved by @apidevtools/json-schema-ref-parser,
// the maintained JSON Reference resolver behind swagger-parser. It must never reach outside the document: a
// `$ref` to a file or URL (anything not starting with `#`) is refused with its location before the resolver runs,
// and the resolver is also told not to resolve external references, so an import does no file or network I/O.
// Circular references (recursive schemas) are left as `$ref`s: the importer reads paths and methods only.
// One legacy spelling is accepted, as Swagger UI does: in a Swagger 2.0 document a bare name (`$ref: "User"`,
// Swagger 1.x style, found in the public petstore) naming one of the document's `definitions` means
// `#/definitions/User`; it is rewritten before resolving.
import { parse as parseYaml } from 'yaml';
import { ImportError } from './errors.ts';
import { isRecord } from './json-document.ts';

/** YAML aliases allowed in one document (the `yaml` default is 100; an alias bomb needs many more). */
const MAX_YAML_ALIASES = 100;

/** The document as a JSON value: text is read as JSON when it starts with `{`, else as YAML. */
export function decodeOpenApiText(document: unknown): unknown {
  if (typeof document !== 'string') return document;
  const text = (document.charCodeAt(0) === 0xfeff ? document.slice(1) : document).trimStart();
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ImportError('document', `not a valid OpenAPI/Swagger JSON document: ${(error as Error).message}`);
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, prettyErrors: true }) as unknown;
  } catch (error) {
    throw new ImportError('document', `not a valid OpenAPI/Swagger document (neither JSON nor YAML): ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The document with its internal `$ref`s resolved; an external `$ref` is an ImportError naming where it is. */
export async function resolveInternalRefs(doc: Record<string, unknown>): Promise<Record<string, unknown>> {
  const definitions = doc.swagger === '2.0' && isRecord(doc.definitions) ? doc.definitions : {};
  const refs = scanRefs(doc, (ref) => (Object.hasOwn(definitions, ref) && /^[\w.-]+$/.test(ref) ? `#/definitions/${ref}` : undefined));
  if (refs.external) {
    throw new ImportError(
      'document',
      `external $ref "${refs.external.ref}" at ${refs.external.at} is refused: only references inside the document (#/...) are followed`,
    );
  }
  if (!refs.any) return doc;
  const { $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  try {
    return (await new $RefParser().dereference(doc, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
      mutateInputSchema: true,
    })) as Record<string, unknown>;
  } catch (error) {
    throw new ImportError('document', `a $ref cannot be resolved: ${(error as Error).message}`);
  }
}

interface RefScan {
  /** Whether the document has any `$ref`. */
  any: boolean;
  /** The first `$ref` (depth-first, document order) that does not point inside the document. */
  external?: { ref: string; at: string };
}

/** Walks the document; `legacy` may rewrite a `$ref` value in place (undefined: keep it). */
function scanRefs(doc: unknown, legacy: (ref: string) => string | undefined): RefScan {
  let any = false;
  const stack: { value: unknown; at: string }[] = [{ value: doc, at: '' }];
  while (stack.length > 0) {
    const { value, at } = stack.pop()!;
    const children: [string, unknown][] = Array.isArray(value) ? value.map((item, i) => [String(i), item]) : isRecord(value) ? Object.entries(value) : [];
    if (isRecord(value) && value.$ref !== undefined) {
      any = true;
      if (typeof value.$ref === 'string') value.$ref = legacy(value.$ref) ?? value.$ref;
      const ref = value.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#')) return { any, external: { ref: String(ref), at: at || '(document)' } };
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i]![1], at: at ? `${at}.${children[i]![0]}` : children[i]![0] });
  }
  return { any };
}
