// CORS, when enabled: origins with one `*` at most, header names that are HTTP tokens (api/header-rules.ts).
import { corsOriginProblem, headerNameProblem } from '../domain/header-rules.ts';
import { childPath, invalid, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';

/** CORS (when enabled), as the gateway compiles it: origins with one `*` at most, header names that are HTTP tokens. */
export function checkCors(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const cors = asObject(spec.CORS);
  if (!cors || cors.enable !== true) return [];
  const errors: RuleProblem[] = [];
  const each = (list: string, problemOf: (value: string) => string | undefined): void => {
    const values = Array.isArray(cors[list]) ? (cors[list] as unknown[]) : [];
    values.forEach((value, index) => {
      const problem = typeof value === 'string' ? problemOf(value) : undefined;
      if (problem) errors.push(invalid(childPath(base, 'CORS', list, index), value, problem));
    });
  };
  each('allowed_origins', corsOriginProblem);
  each('allowed_headers', (name) => (name === '*' ? undefined : headerNameProblem(name)));
  each('exposed_headers', headerNameProblem);
  return errors;
}
