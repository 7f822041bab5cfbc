// The request paths an OAS operation's allow and ignoreAuthentication cover (oas-allowances.ts): the operation's
// path as OpenAPI templates it, where a `{name}` is the value of one segment or of part of one, never a `/` (Tyk
// Gateway turns it into `([^/]+)` likewise), anchored at both ends against the normalised request path
// (proxy/request-path.ts). A concrete path the document gives another operation (`/pets/mine` beside `/pets/{id}`)
// is that operation's (OpenAPI matches concrete paths before templated ones), so it is left out in every spelling a
// lenient upstream reads as it (`/pets/MINE`, `/pets/mine;x`, `/pets/mine.`: block's reading). Classic entries
// keep their wider `{name}` (path-pattern.ts); here the document names the neighbours an allowance must not open:
// `GET /pets/{id}` served without authentication must not serve `GET /pets/{id}/owner` without it. Compiled once,
// on RE2 (linear in the path); a path too long to compile covers nothing (an allowance can then only refuse).
import { RE2JS } from 're2js';
import { compileBoundedRegexp } from '../../domain/bounded-regexp.ts';
import { compileResourcePattern, type PathPattern } from './path-pattern.ts';

const PARAMETER = /\{[^}]*\}/;

export function compileOperationPattern(path: string, ignoreCase: boolean, documentPaths: readonly string[]): PathPattern {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  const source = `^${normalized
    .split(PARAMETER)
    .map((literal) => RE2JS.quote(literal))
    .join('[^/]+')}$`;
  const compiled = compileBoundedRegexp(source, { ignoreCase });
  const concrete = documentPaths.filter((other) => other !== path && !PARAMETER.test(other)).map((other) => compileResourcePattern(other));
  return {
    source: path,
    test: (candidate) => compiled.ok && compiled.regexp.test(candidate) && !concrete.some((other) => other.test(candidate)),
  };
}
