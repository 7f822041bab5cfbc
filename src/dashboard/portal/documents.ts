// What a documentation object's text must be, by doc_type, checked before it is stored (400 naming
// `documentation`): `swagger` is base64 of a Swagger 2.0 or OpenAPI 3.x document in JSON or YAML (Tyk's
// format; the portal renders it), `blueprint` base64 text (deprecated), `swagger_custom_url` an http(s) URL,
// `graphql` any text. decodeDocument() is the inverse the portal pages use to render a `swagger` document.
import { parse as parseYaml } from 'yaml';
import { HttpError, isObject } from '../http.ts';
import type { DocumentationInput } from './schemas.ts';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const refuse = (why: string): HttpError => new HttpError('invalid', `documentation: ${why}`);

function base64Text(value: string): string {
  const compact = value.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw refuse('must be base64-encoded (standard alphabet, padded) for this doc_type');
  return Buffer.from(compact, 'base64').toString('utf8');
}

/** The document parsed from a `swagger` documentation object's text (undefined when it is not one). */
export function decodeDocument(documentation: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = parseYaml(Buffer.from(documentation.replace(/\s+/g, ''), 'base64').toString('utf8'), { maxAliasCount: 100 });
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function checkDocumentation(input: DocumentationInput): void {
  switch (input.doc_type) {
    case 'swagger': {
      base64Text(input.documentation);
      const document = decodeDocument(input.documentation);
      if (!document) throw refuse('the decoded text is not a JSON or YAML object');
      const version = typeof document.openapi === 'string' ? document.openapi : typeof document.swagger === 'string' ? document.swagger : undefined;
      if (!version || !/^(2\.0|3\.\d+(\.\d+)?)$/.test(version))
        throw refuse('the decoded document is not Swagger 2.0 or OpenAPI 3.x (no `swagger: "2.0"` or `openapi: "3.x"`)');
      return;
    }
    case 'blueprint':
      base64Text(input.documentation);
      return;
    case 'swagger_custom_url': {
      let url: URL;
      try {
        url = new URL(input.documentation);
      } catch {
        throw refuse('must be an http(s) URL for doc_type swagger_custom_url');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('must be an http(s) URL for doc_type swagger_custom_url');
      return;
    }
    case 'graphql':
      return;
  }
}
