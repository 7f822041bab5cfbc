// Admission of SecurityPolicy resources (Tyk's hooks here are empty stubs; ours check what gw\'s design says).
// Defaulting, deliberately minimal: only the legacy state fields. gw's design says `active` and `is_inactive` are legacy
// and overridden by `state` (default active); a policy written the pre-state way keeps its meaning by getting the
// state those fields meant: is_inactive: true -> deny, else active: false -> draft. The gateway reads
// is_inactive but not `active`, so without this a legacy `active: false` policy would silently serve as active.
// A policy without any of them is left alone: state's default (active) applies without writing it.
// Validation: the CRD's zod schema (state in active|draft|deny, quota_max -1 or positive, ...); gw\'s documented limits
// table on the global limits and on each access right's limit (limits.ts); access_rights_array entries name an API
// by a valid object name (namespace optional, the policy's own by default), once each (the kind: the schema's enum).
import { SecurityPolicySpec } from '../../domain/crd/securitypolicy.ts';
import { isNamespaceName, isResourceName } from './object-names.ts';
import { childPath, duplicate, Findings, invalid, keyPath, mergeResults, required, type ValidationResult } from './field-errors.ts';
import { pointer, type PatchOperation } from './json-patch.ts';
import { checkLimits } from './limits.ts';
import { schemaErrors } from './schema-issues.ts';
import { asObject } from '../../definition-rules/untyped.ts';

export interface PolicyContext {
  /** Namespace of the policy: where access rights without a namespace point. */
  namespace: string | undefined;
}

export function defaultSecurityPolicy(spec: unknown): PatchOperation[] {
  const fields = asObject(spec);
  if (!fields || fields.state !== undefined) return [];
  if (fields.is_inactive === true) return [{ op: 'add', path: pointer('spec', 'state'), value: 'deny' }];
  if (fields.active === false) return [{ op: 'add', path: pointer('spec', 'state'), value: 'draft' }];
  return [];
}

export function validateSecurityPolicy(spec: unknown, context: PolicyContext): ValidationResult {
  const schema = schemaErrors(SecurityPolicySpec, spec, 'spec');
  const fields = asObject(spec);
  if (!fields) return mergeResults(spec === undefined ? [required('spec', 'a SecurityPolicy needs a spec')] : schema);
  const findings = new Findings();

  findings.add(checkLimits(fields, 'spec'));
  checkLegacyState(fields, findings);
  checkAccessRightsArray(fields.access_rights_array, context, findings);

  const byId = asObject(fields.access_rights) ?? {};
  for (const [id, value] of Object.entries(byId)) {
    const access = asObject(value);
    const at = keyPath('spec.access_rights', id);
    findings.add(checkLimits(access?.limit, childPath(at, 'limit')));
    if (typeof access?.api_id === 'string' && access.api_id !== id) {
      findings.warn(childPath(at, 'api_id'), `differs from its key ${JSON.stringify(id)}: the gateway grants the API whose id is the key`);
    }
  }
  return mergeResults(schema, findings);
}

function checkLegacyState(fields: Record<string, unknown>, findings: Findings): void {
  const state = fields.state;
  if (typeof state !== 'string') return;
  if (fields.is_inactive === true && state !== 'deny')
    findings.warn('spec.is_inactive', `ignored: spec.state (${state}) overrides it; use state: deny to deactivate keys`);
  if (fields.active === false && state === 'active') findings.warn('spec.active', 'ignored: spec.state (active) overrides it; use state: draft or deny');
}

function checkAccessRightsArray(value: unknown, context: PolicyContext, findings: Findings): void {
  if (!Array.isArray(value)) return;
  const seen = new Map<string, number>();
  value.forEach((item, index) => {
    const entry = asObject(item);
    if (!entry) return;
    const at = childPath('spec.access_rights_array', index);
    const { name, namespace } = entry;
    const kind = typeof entry.kind === 'string' ? entry.kind : 'ApiDefinition';
    if (typeof name === 'string' && name !== '' && !isResourceName(name)) {
      findings.error(invalid(childPath(at, 'name'), name, 'must be the name of an API resource: lower case letters, digits, - and . (at most 253)'));
    }
    if (typeof namespace === 'string' && namespace !== '' && !isNamespaceName(namespace)) {
      findings.error(
        invalid(
          childPath(at, 'namespace'),
          namespace,
          "must be a namespace name (lower case letters, digits and -, at most 63), or empty for the policy's own",
        ),
      );
    }
    if (typeof name === 'string' && name !== '') {
      const target = `${kind} ${(typeof namespace === 'string' && namespace) || context.namespace || 'default'}/${name}`;
      const first = seen.get(target);
      if (first === undefined) seen.set(target, index);
      else
        findings.error(duplicate(at, target, `already granted by spec.access_rights_array[${first}]; merge the two entries (versions, allowed_urls, limit)`));
    }
    findings.add(checkLimits(entry.limit, childPath(at, 'limit')));
  });
}
