// jwt_source as the loader needs it: classified by the shared rule (api/jwt-source.ts), a problem refused as a
// DefinitionError naming the field.
import { parseJwtSource, type JwtKeySource, type JwtSigningMethod } from '../../domain/jwt-source.ts';
import { DefinitionError } from './api-spec.ts';

export function loadJwtSource(value: string | undefined, signingMethod: JwtSigningMethod, field: string): JwtKeySource {
  const result = parseJwtSource(value, signingMethod);
  if (!result.ok) throw new DefinitionError(`${field} ${result.problem}`);
  return result.source;
}
