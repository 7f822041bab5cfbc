// Credentials-from-body regexps as the loader needs them: compiled by the shared rule (api/body-credentials.ts), a
// problem refused as a DefinitionError naming the field.
import { compileCredentialRegexp } from '../../domain/body-credentials.ts';
import { DefinitionError } from './api-spec.ts';
import type { LinearRegexp } from '../../domain/bounded-regexp.ts';

export function loadBodyRegexps(
  user: string | undefined,
  password: string | undefined,
  base: string,
  names: [string, string],
): { user: LinearRegexp; password: LinearRegexp } {
  const load = (source: string | undefined, name: string): LinearRegexp => {
    const result = compileCredentialRegexp(source);
    if (!result.ok) throw new DefinitionError(`${base}.${name} ${result.problem}`);
    return result.regexp;
  };
  return { user: load(user, names[0]), password: load(password, names[1]) };
}
