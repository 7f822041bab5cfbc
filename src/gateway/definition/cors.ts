// Compiles an API's CORS settings (Classic `CORS`, OAS `middleware.global.cors`) into a CorsSpec, once at load,
// with Tyk's defaults (rs/cors): every origin when allowed_origins is empty or holds `*`; methods GET, POST,
// HEAD; request headers Origin, Accept, Content-Type, X-Requested-With (Origin always allowed). An origin with more
// than one `*`, or a header name that is not an HTTP token, is refused naming the field (api/header-rules.ts, shared
// with the admission webhook).
import { canonicalHeaderName, corsOriginProblem, headerNameProblem } from '../../domain/header-rules.ts';
import { DefinitionError, type CorsSpec } from './api-spec.ts';

export interface CorsInput {
  allowedOrigins?: string[] | undefined;
  allowedMethods?: string[] | undefined;
  allowedHeaders?: string[] | undefined;
  exposedHeaders?: string[] | undefined;
  allowCredentials?: boolean | undefined;
  maxAge?: number | undefined;
  optionsPassthrough?: boolean | undefined;
}

const DEFAULT_METHODS = ['GET', 'POST', 'HEAD'];
const DEFAULT_HEADERS = ['Origin', 'Accept', 'Content-Type', 'X-Requested-With'];

/** `field` names each list as the format spells it (Classic allowed_origins, OAS allowedOrigins). */
export function compileCors(input: CorsInput, field: (list: 'origins' | 'headers' | 'exposed') => string): CorsSpec {
  const origins = (input.allowedOrigins ?? []).map((origin) => origin.toLowerCase());
  const spec: CorsSpec = {
    anyOrigin: origins.length === 0 || origins.includes('*'),
    origins: new Set(),
    originWildcards: [],
    methods: new Set((input.allowedMethods?.length ? input.allowedMethods : DEFAULT_METHODS).map((method) => method.toUpperCase())),
    anyHeader: (input.allowedHeaders ?? []).includes('*'),
    headers: new Set(['origin']),
    allowCredentials: input.allowCredentials ?? false,
    maxAge: input.maxAge ?? 0,
    optionsPassthrough: input.optionsPassthrough ?? false,
  };
  origins.forEach((origin, index) => {
    const problem = corsOriginProblem(origin);
    if (problem) throw new DefinitionError(`${field('origins')}[${index}] ${problem}`);
    const star = origin.indexOf('*');
    if (star === -1) spec.origins.add(origin);
    else if (origin !== '*') spec.originWildcards.push({ prefix: origin.slice(0, star), suffix: origin.slice(star + 1) });
  });
  const headers = input.allowedHeaders?.length ? input.allowedHeaders : DEFAULT_HEADERS;
  headers.forEach((name, index) => {
    if (name === '*') return;
    const problem = headerNameProblem(name);
    if (problem) throw new DefinitionError(`${field('headers')}[${index}] ${problem}`);
    spec.headers.add(name.toLowerCase());
  });
  const exposed = input.exposedHeaders ?? [];
  exposed.forEach((name, index) => {
    const problem = headerNameProblem(name);
    if (problem) throw new DefinitionError(`${field('exposed')}[${index}] ${problem}`);
  });
  if (exposed.length > 0) spec.exposedHeaders = exposed.map(canonicalHeaderName).join(', ');
  return spec;
}
