// The request paths an OAS operation's allow and ignoreAuthentication cover (oas-allowances.ts): the operation's
// path as OpenAPI templates it, where a `{name}` is the value of one segment or of part of one, never a `/` (Tyk
// Gateway turns it into `([^/]+)` likewise), anchored at both ends against the normalised request path
// (proxy/request-path.ts). A concrete path the document gives another operation (`/pets/mine` beside `/pets/{id}`)
// is that operation's (OpenAPI matches concrete paths before templated ones), so it is left out. Classic entries
// keep their wider `{name}` (path-pattern.ts); here the document names the neighbours an allowance must not open:
// `GET /pets/{id}` served without authentication must not serve `GET /pets/{id}/owner` without it. Compiled once,
// on RE2 (linear in the path); a path too long to compile covers nothing (an allowance can then only refuse).
import { RE2JS } from 're2js';
import { compileBoundedRegexp } from '../../domain/bounded-regexp.ts';
import type { PathPattern } from './path-pattern.ts';

const PARAMETER = /\{[^}]*\}/;

export function compileOperationPattern(path: string, ignoreCase: boolean, documentPaths: readonly string[]): PathPattern {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  const source = `^${normalized
    .split(PARAMETER)
    .map((literal) => RE2JS.quote(literal))
    .join('[^/]+')}$`;
  const compiled = compileBoundedRegexp(source, { ignoreCase });
  const fold = (text: string): string => (ignoreCase ? text.toLowerCase() : text);
  const concrete = new Set(documentPaths.filter((other) => other !== path && !PARAMETER.test(other)).map(fold));
  return {
    source: path,
    test: (candidate) => compiled.ok && !concrete.has(fold(candidate)) && compiled.regexp.test(candidate),
  };
}
