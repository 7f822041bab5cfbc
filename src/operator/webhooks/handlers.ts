// The admission webhooks (mutating and validating for ApiDefinition and SecurityPolicy, validating only for
// GwStreamsApiDefinition): their paths (controller-runtime's naming, /<mutate|validate>-<group with dashes>-
// <version>-<kind>, so charts and kustomize bases written for Tyk keep working) and how each turns an
// AdmissionRequest into an AdmissionResponse. What every webhook lets through untouched:
//   - DELETE and CONNECT, kinds other than its own (a misrouted configuration never blocks anything)
//   - an object being deleted (deletionTimestamp set): removing finalizers must never be blocked
//   - an UPDATE that leaves the spec as it was (metadata, finalizers, labels): an object admitted before a rule
//     existed stays writable by the operator; it is checked again when its spec changes
import { isDeepStrictEqual } from 'node:util';
import { GROUP, VERSION } from '../../domain/crd/meta.ts';
import { allow, rejectInvalid, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import type { ValidationResult } from './field-errors.ts';
import type { PatchOperation } from './json-patch.ts';
import { checkListenPathConflict, type AdmissionCluster } from './listen-paths.ts';
import { defaultSecurityPolicy, validateSecurityPolicy } from './securitypolicy.ts';
import { validateStreamsApiDefinition } from './streamsapidefinition.ts';
import { asObject } from '../../definition-rules/untyped.ts';

export type WebhookType = 'mutating' | 'validating';

export interface Webhook {
  /** URL path the apiserver posts AdmissionReviews to. */
  path: string;
  /** Name for WebhookConfigurations (a qualified name, unique per configuration) and the metrics label. */
  name: string;
  type: WebhookType;
  kind: string;
  /** Plural resource name for the configuration's rules. */
  resource: string;
  /** `cluster`: what the operator's cache holds, for the checks against other objects (none: skipped). */
  admit(request: AdmissionRequest, cluster?: AdmissionCluster): AdmissionResponse;
}

interface KindAdmission {
  kind: string;
  resource: string;
  /** Absent: the kind has no mutating webhook. */
  defaults?(spec: unknown): PatchOperation[];
  validate(spec: unknown, request: AdmissionRequest, cluster: AdmissionCluster | undefined): ValidationResult;
}

const KINDS: KindAdmission[] = [
  {
    kind: 'ApiDefinition',
    resource: 'apidefinitions',
    defaults: defaultApiDefinition,
    validate: (spec, request, cluster) => {
      const result = validateApiDefinition(spec);
      const metadata = metadataOf(request.object);
      const conflict = checkListenPathConflict(
        spec,
        { name: metadata.name ?? request.name ?? '', namespace: request.namespace ?? metadata.namespace ?? '', labels: metadata.labels },
        cluster,
      );
      return conflict ? { ...result, errors: [...result.errors, conflict] } : result;
    },
  },
  {
    kind: 'SecurityPolicy',
    resource: 'securitypolicies',
    defaults: defaultSecurityPolicy,
    validate: (spec, request) => validateSecurityPolicy(spec, { namespace: request.namespace ?? metadataOf(request.object).namespace }),
  },
  { kind: 'GwStreamsApiDefinition', resource: 'gwstreamsapidefinitions', validate: (spec) => validateStreamsApiDefinition(spec) },
];

export function webhookPath(type: WebhookType, kind: string): string {
  return `/${type === 'mutating' ? 'mutate' : 'validate'}-${GROUP.replace(/\./g, '-')}-${VERSION}-${kind.toLowerCase()}`;
}

export const WEBHOOKS: readonly Webhook[] = KINDS.flatMap((admission) => [
  ...(admission.defaults
    ? [
        {
          path: webhookPath('mutating', admission.kind),
          name: `m${admission.kind.toLowerCase()}.${GROUP}`,
          type: 'mutating' as const,
          kind: admission.kind,
          resource: admission.resource,
          admit: (request: AdmissionRequest) => mutate(admission, request),
        },
      ]
    : []),
  {
    path: webhookPath('validating', admission.kind),
    name: `v${admission.kind.toLowerCase()}.${GROUP}`,
    type: 'validating' as const,
    kind: admission.kind,
    resource: admission.resource,
    admit: (request: AdmissionRequest, cluster?: AdmissionCluster) => validate(admission, request, cluster),
  },
]);

/** Every path the server answers on: for charts, kustomize bases and tests. */
export const WEBHOOK_PATHS: readonly string[] = WEBHOOKS.map((w) => w.path);

function mutate(admission: KindAdmission, request: AdmissionRequest): AdmissionResponse {
  if (!applies(admission, request)) return allow(request.uid);
  return allow(request.uid, { patch: admission.defaults?.(asObject(request.object)?.spec) ?? [] });
}

function validate(admission: KindAdmission, request: AdmissionRequest, cluster: AdmissionCluster | undefined): AdmissionResponse {
  if (!applies(admission, request)) return allow(request.uid);
  const spec = asObject(request.object)?.spec;
  if (request.operation === 'UPDATE' && isDeepStrictEqual(spec, asObject(request.oldObject)?.spec)) return allow(request.uid);
  const { errors, warnings } = admission.validate(spec, request, cluster);
  if (errors.length === 0) return allow(request.uid, { warnings });
  const metadata = metadataOf(request.object);
  const name = metadata.name || request.name || (metadata.generateName ? `${metadata.generateName}*` : '');
  return rejectInvalid(request.uid, { group: GROUP, kind: admission.kind, name }, errors, warnings);
}

function applies(admission: KindAdmission, request: AdmissionRequest): boolean {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return false;
  if (request.kind.group !== GROUP || request.kind.kind !== admission.kind) return false;
  if (request.subResource) return false;
  return !metadataOf(request.object).deletionTimestamp;
}

function metadataOf(object: unknown): {
  name?: string;
  namespace?: string;
  generateName?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
} {
  const metadata = asObject(asObject(object)?.metadata) ?? {};
  const text = (key: string): string | undefined => {
    const value = metadata[key];
    return typeof value === 'string' ? value : undefined;
  };
  const labels = Object.fromEntries(Object.entries(asObject(metadata.labels) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return { name: text('name'), namespace: text('namespace'), generateName: text('generateName'), deletionTimestamp: text('deletionTimestamp'), labels };
}
