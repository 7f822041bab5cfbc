// Certificates a Classic API names by store id: the ones it serves and accepts (`certificates`,
// `client_certificates`) and the upstream maps from host patterns to ids (`upstream_certificates`,
// `pinned_public_keys`), by the rules of api/certificate-ids.ts and api/upstream-tls-maps.ts.
import { CERTIFICATE_ID_FIELDS, certificateIdProblem } from '../domain/certificate-ids.ts';
import { upstreamTlsMapProblem } from '../domain/upstream-tls-maps.ts';
import { childPath, invalid, keyPath, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';

/** Certificate store ids (`certificates`, `client_certificates`): the gateway's rule, api/certificate-ids.ts. */
export function checkCertificateIds(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const errors: RuleProblem[] = [];
  for (const field of CERTIFICATE_ID_FIELDS) {
    const ids = spec[field];
    if (!Array.isArray(ids)) continue; // the schema reports the type
    const problem = certificateIdProblem(ids);
    if (!problem) continue;
    const bad: unknown = ids[problem[0]];
    errors.push(invalid(`${childPath(base, field)}[${problem[0]}]`, typeof bad === 'string' ? bad : JSON.stringify(bad), problem[1]));
  }
  return errors;
}

/** upstream_certificates and pinned_public_keys: host patterns to certificate ids (api/upstream-tls-maps.ts). */
export function checkUpstreamTlsMaps(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const errors: RuleProblem[] = [];
  for (const field of ['upstream_certificates', 'pinned_public_keys']) {
    const map = asObject(spec[field]);
    const problem = map ? upstreamTlsMapProblem(map) : undefined;
    if (problem) errors.push(invalid(keyPath(childPath(base, field), problem.key), problem.key, problem.problem));
  }
  return errors;
}
