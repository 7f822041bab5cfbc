// Admission of ApiDefinition (Classic) resources: defaulting as JSON Patch, and validation as field errors.
// Defaulting (both idempotent; a second pass patches nothing):
//   use_standard_auth without auth_configs.authToken  -> authToken = the legacy `auth` settings when present (gw's
//                                                       design: `auth` was replaced by auth_configs.authToken), else
//                                                       {auth_header_name: Authorization} (gw's documented default)
//   no version_data, or no versions                   -> one version, Default, served unversioned. Unlike Tyk
//                                                        (use_extended_paths: false) it keeps applying the
//                                                       API's extended_paths, which is what the gateway does for an
//                                                       API without versions: defaulting never changes behaviour.
// Validation: the CRD's zod schema; keyless together with standard auth; what the gateway refuses (gateway-rules.ts:
// auth modes it does not implement, the upstream URL, the listen path, versions); global_rate_limit's rate needs a
// period; what the spec names in the cluster (certificate Secrets, SecurityPolicies as JWT defaults:
// cluster-references.ts).
import { ApiDefinitionSpec } from '../../api/crd/apidefinition.ts';
import { checkCertificateSecretReferences, checkJwtDefaultPolicies } from './cluster-references.ts';
import { childPath, Findings, invalid, mergeResults, required, type FieldError, type ValidationResult } from './field-errors.ts';
import {
  checkApiId,
  checkAuth,
  checkCertificateIds,
  checkDomain,
  checkCors,
  checkUnsupportedFields,
  checkExtendedPathsInUse,
  checkListenPath,
  checkResponseProcessors,
  checkUpstreamTarget,
  checkUpstreamTlsMaps,
  checkVersionData,
  DEFAULT_VERSION,
} from './gateway-rules.ts';
import { checkGraphql } from './gateway-graphql-rules.ts';
import { checkPlugins } from './gateway-plugin-rules.ts';
import { pointer, type PatchOperation } from './json-patch.ts';
import { schemaErrors } from './schema-issues.ts';
import { asObject } from './untyped.ts';

export const DEFAULT_AUTH_HEADER = 'Authorization';

export function defaultApiDefinition(spec: unknown): PatchOperation[] {
  const fields = asObject(spec);
  if (!fields) return [];
  const patch: PatchOperation[] = [];

  const configs = fields.auth_configs;
  const configsObject = asObject(configs);
  if (fields.use_standard_auth === true && (configs === undefined || (configsObject && configsObject.authToken === undefined))) {
    const token = { auth_header_name: DEFAULT_AUTH_HEADER, ...asObject(fields.auth) };
    patch.push(
      configsObject
        ? { op: 'add', path: pointer('spec', 'auth_configs', 'authToken'), value: token }
        : { op: 'add', path: pointer('spec', 'auth_configs'), value: { authToken: token } },
    );
  }

  const defaultVersions = { [DEFAULT_VERSION]: { name: DEFAULT_VERSION, use_extended_paths: true } };
  const data = asObject(fields.version_data);
  const declared = asObject(data?.versions);
  const noVersions = data?.versions === undefined || (declared !== undefined && Object.keys(declared).length === 0);
  if (fields.version_data === undefined) {
    patch.push({
      op: 'add',
      path: pointer('spec', 'version_data'),
      value: { not_versioned: true, default_version: DEFAULT_VERSION, versions: defaultVersions },
    });
  } else if (data && noVersions) {
    patch.push({ op: 'add', path: pointer('spec', 'version_data', 'versions'), value: defaultVersions });
    if (data.not_versioned === undefined) patch.push({ op: 'add', path: pointer('spec', 'version_data', 'not_versioned'), value: true });
    if (data.default_version === undefined || data.default_version === '') {
      patch.push({ op: 'add', path: pointer('spec', 'version_data', 'default_version'), value: DEFAULT_VERSION });
    }
  }
  return patch;
}

export function validateApiDefinition(spec: unknown): ValidationResult {
  const schema = schemaErrors(ApiDefinitionSpec, spec, 'spec');
  const fields = asObject(spec);
  if (!fields) return mergeResults(spec === undefined ? [required('spec', 'an ApiDefinition needs a spec')] : schema);
  const findings = new Findings();
  const errors = (list: FieldError[]): void => list.forEach((e) => findings.error(e));

  errors(checkAuth(fields, 'spec'));
  errors(checkCertificateIds(fields, 'spec'));
  errors(checkDomain(fields.domain, 'spec.domain'));
  const proxy = asObject(fields.proxy) ?? {};
  if (fields.proxy === undefined) findings.error(required('spec.proxy', 'an ApiDefinition needs proxy.listen_path and proxy.target_url'));
  else {
    errors(checkListenPath(proxy.listen_path, 'spec.proxy.listen_path'));
    const balanced = proxy.enable_load_balancing === true;
    errors(checkUpstreamTarget(proxy.target_url, 'spec.proxy.target_url', !balanced));
    if (balanced) errors(checkLoadBalancedTargets(proxy.target_list, 'spec.proxy.target_list'));
  }
  errors(checkApiId(fields.api_id, 'spec.api_id'));
  errors(checkVersionData(fields, 'spec'));
  errors(checkExtendedPathsInUse(fields, 'spec'));
  errors(checkCors(fields, 'spec'));
  errors(checkUnsupportedFields(fields, 'spec'));
  errors(checkResponseProcessors(fields, 'spec'));
  errors(checkGlobalRateLimit(fields.global_rate_limit, 'spec.global_rate_limit'));
  errors(checkUpstreamTlsMaps(fields, 'spec'));
  errors(checkGraphql(fields, 'spec'));
  errors(checkPlugins(fields, 'spec'));
  errors(checkCertificateSecretReferences(fields, 'spec'));
  errors(checkJwtDefaultPolicies(fields, 'spec'));

  const legacy = asObject(fields.auth);
  const token = asObject(asObject(fields.auth_configs)?.authToken);
  if (legacy && token && Object.entries(legacy).some(([key, value]) => JSON.stringify(token[key]) !== JSON.stringify(value))) {
    findings.warn('spec.auth', 'ignored: spec.auth_configs.authToken holds the token settings (spec.auth is their legacy location)');
  }
  return mergeResults(schema, findings);
}

/** enable_load_balancing: target_list names at least one upstream, each one a target_url would be (the gateway refuses the same). */
function checkLoadBalancedTargets(value: unknown, field: string): FieldError[] {
  const list = Array.isArray(value) ? value : [];
  if (list.length === 0) return [required(field, 'at least one upstream URL when enable_load_balancing is set')];
  return list.flatMap((url, index) => checkUpstreamTarget(url, `${field}[${index}]`, true));
}

/** The API-wide rate limit: `rate` requests per `per` seconds; a rate needs a period (the gateway ignores it otherwise). */
function checkGlobalRateLimit(value: unknown, field: string): FieldError[] {
  const limit = asObject(value);
  if (!limit || limit.disabled === true) return [];
  const rate = limit.rate;
  const per = limit.per;
  if (typeof rate !== 'number' || rate <= 0) return [];
  const hint =
    'the period in seconds is needed when rate is set (rate requests per `per` seconds across all clients); set rate 0 or disabled: true for no limit';
  if (per === undefined) return [required(childPath(field, 'per'), hint)];
  if (typeof per === 'number' && per <= 0) return [invalid(childPath(field, 'per'), per, `must be positive: ${hint}`)];
  return [];
}
