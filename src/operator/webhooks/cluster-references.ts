// Admission of what an ApiDefinition names in the cluster (resolved by the operator, never sent to a gateway):
//   certificate_secret_names[], client_certificate_refs[]   Secret names (same namespace): required, DNS-1123
//   upstream_certificate_refs, pinned_public_keys_refs      host -> Secret name: the host rule the gateway applies
//                                                           to upstream_certificates / pinned_public_keys
//                                                           (api/upstream-tls-maps.ts), the value a Secret name
//   jwt_default_policies[]                                  a policy id, or <namespace>/<name> of a SecurityPolicy
//                                                           (both parts valid names; one slash)
import { upstreamTlsMapProblem } from '../../domain/upstream-tls-maps.ts';
import { childPath, invalid, keyPath, required, type FieldError } from './field-errors.ts';
import { isNamespaceName, isResourceName } from './object-names.ts';
import { asObject } from '../../definition-rules/untyped.ts';

const SECRET_NAME = 'must name a kubernetes.io/tls Secret in the same namespace: lower case letters, digits, - and . (at most 253)';

function secretNameError(field: string, value: unknown): FieldError | undefined {
  if (typeof value !== 'string') return undefined; // the schema reports the type
  if (value === '') return required(field, "a Secret reference needs the Secret's name");
  return isResourceName(value) ? undefined : invalid(field, value, SECRET_NAME);
}

export function checkCertificateSecretReferences(spec: Record<string, unknown>, base: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['certificate_secret_names', 'client_certificate_refs']) {
    const names = spec[field];
    if (!Array.isArray(names)) continue;
    names.forEach((name, i) => {
      const error = secretNameError(childPath(base, field, i), name);
      if (error) errors.push(error);
    });
  }
  for (const field of ['upstream_certificate_refs', 'pinned_public_keys_refs']) {
    const map = asObject(spec[field]);
    if (!map) continue;
    const hostProblem = upstreamTlsMapProblem(Object.fromEntries(Object.keys(map).map((host) => [host, 'secret'])));
    if (hostProblem) errors.push(invalid(keyPath(childPath(base, field), hostProblem.key), hostProblem.key, hostProblem.problem));
    for (const [host, name] of Object.entries(map)) {
      const error = secretNameError(keyPath(childPath(base, field), host), name);
      if (error) errors.push(error);
    }
  }
  return errors;
}

export function checkJwtDefaultPolicies(spec: Record<string, unknown>, base: string): FieldError[] {
  const policies = spec.jwt_default_policies;
  if (!Array.isArray(policies)) return [];
  const errors: FieldError[] = [];
  policies.forEach((reference, i) => {
    if (typeof reference !== 'string') return;
    const field = childPath(base, 'jwt_default_policies', i);
    if (reference === '') {
      errors.push(required(field, 'a policy id, or <namespace>/<name> of a SecurityPolicy'));
      return;
    }
    if (!reference.includes('/')) return; // a policy id
    const [namespace = '', name = '', ...rest] = reference.split('/');
    if (rest.length > 0 || !isNamespaceName(namespace) || !isResourceName(name)) {
      errors.push(
        invalid(
          field,
          reference,
          'a SecurityPolicy is named <namespace>/<name> (a namespace and a resource name, one slash); anything without a slash is a policy id',
        ),
      );
    }
  });
  return errors;
}
