// A gRPC authentication plugin's ID extractor at request time (the definition's id_extractor, read by
// domain/grpc-auth-plugin.ts): the identity a request carries, read from a header (its first value), a form field
// (the url-encoded body's values, then the query's, joined as Go's ParseForm and Tyk join them) or the whole body,
// then taken whole (value), as the regex_match_index-th match of the expression (regex, Go's FindAllString
// matches), or as the string value of the XPath expression's first node in the body or field parsed as XML
// (xpath). The session id is Tyk Gateway's: the API's org id followed by the hex MD5 of the identity. Nothing found
// is `{ok: false}` with the reason for the log (the client gets Tyk's 400 `Authorization field missing`).
import { createHash } from 'node:crypto';
import type { IdExtractorSpec } from '../../../domain/grpc-auth-plugin.ts';
import { parseXml, XmlError } from '../../../importers/xml.ts';
import { XmlPathTooCostly, xmlPathString } from '../../../importers/xml-path.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';

export type Extraction = { ok: true; sessionId: string } | { ok: false; reason: string };

export function extractSessionId(ctx: ProxyContext, extractor: IdExtractorSpec, orgId: string): Extraction {
  const input = sourceValue(ctx, extractor);
  if (input === undefined) return { ok: false, reason: `no ${extractor.from === 'body' ? 'body' : `${extractor.from} ${extractor.name}`} in the request` };
  const identity = extracted(input, extractor.extract);
  if (typeof identity !== 'string') return identity;
  return { ok: true, sessionId: `${orgId}${createHash('md5').update(identity).digest('hex')}` };
}

function sourceValue(ctx: ProxyContext, extractor: IdExtractorSpec): string | undefined {
  switch (extractor.from) {
    case 'header': {
      const raw = ctx.req.headers[extractor.name.toLowerCase()];
      const value = Array.isArray(raw) ? raw[0] : raw;
      return value ? value : undefined;
    }
    case 'form': {
      const values = formValues(ctx, extractor.name);
      return values.length > 0 ? values.join('') : undefined;
    }
    case 'body':
      return (ctx.body ?? Buffer.alloc(0)).toString('utf8');
  }
}

/** Go's Request.ParseForm: a url-encoded POST, PUT or PATCH body's values first, then the query's. */
function formValues(ctx: ProxyContext, name: string): string[] {
  const values: string[] = [];
  const method = ctx.req.method ?? 'GET';
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && type === 'application/x-www-form-urlencoded' && ctx.body)
    values.push(...new URLSearchParams(ctx.body.toString('utf8')).getAll(name));
  const url = ctx.req.url ?? '';
  const query = url.indexOf('?');
  if (query !== -1) values.push(...new URLSearchParams(url.slice(query + 1)).getAll(name));
  return values;
}

function extracted(input: string, extract: IdExtractorSpec['extract']): string | { ok: false; reason: string } {
  switch (extract.with) {
    case 'value':
      return input;
    case 'regex': {
      const found = extract.regexp.findAll(input, extract.matchIndex + 1);
      return found.length > extract.matchIndex ? found[extract.matchIndex]! : { ok: false, reason: `the expression has no match ${extract.matchIndex}` };
    }
    case 'xpath':
      try {
        const value = xmlPathString(extract.path, parseXml(input));
        return value ?? { ok: false, reason: 'the XPath expression selects nothing' };
      } catch (error) {
        if (error instanceof XmlError || error instanceof XmlPathTooCostly) return { ok: false, reason: error.message };
        throw error;
      }
  }
}
