// Pieces every custom resource of group gw.gw.io shares: the group/version, references to other objects
// (contextRef, ConfigMap and Secret refs), the metav1.Condition shape and the sync status (`latestTransaction`).
// Zod only; the CRD YAML is generated from these by scripts/gen-crds.ts, so a `.describe()` here is what
// `kubectl explain` prints.
import { z } from 'zod';

export const GROUP = 'gw.gw.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** An object in the cluster by name; an empty namespace means the referrer's own namespace. */
export const ObjectRef = z.object({
  name: z.string().min(1).describe('Name of the referenced object.'),
  namespace: z.string().optional().describe("Namespace of the referenced object; empty means the referrer's own namespace."),
});
export type ObjectRef = z.infer<typeof ObjectRef>;

export const ContextRef = ObjectRef.describe(
  "OperatorContext whose credentials and parameters are used for this resource instead of the operator's defaults " +
    "(GW_* settings). Without a namespace the resource's own namespace is used.",
);

/** A key of a ConfigMap: where an OAS or Streams definition document is kept. */
export const ConfigMapKeyRef = z.object({
  name: z.string().min(1).describe('Name of the ConfigMap holding the definition.'),
  namespace: z.string().optional().describe("Namespace of that ConfigMap; empty means the resource's own namespace."),
  keyName: z.string().min(1).describe('Key inside the ConfigMap whose value is the definition document (JSON).'),
});

/** A key of a Secret. */
export const SecretKeyRef = z.object({
  name: z.string().min(1).describe('Name of the Secret.'),
  namespace: z.string().optional().describe("Namespace of the Secret; empty means the resource's own namespace."),
  keyName: z.string().min(1).describe('Key inside the Secret.'),
});

/** Sync status shown in the SYNCSTATUS column. */
export const TransactionStatus = z.enum(['Successful', 'Failed']);

export const LatestTransaction = z
  .object({
    status: TransactionStatus.optional().describe('Outcome of the last reconciliation with the gateway or dashboard.'),
    time: z.iso.datetime().optional().describe('When the last reconciliation finished (RFC 3339).'),
    error: z.string().optional().describe('Why the last reconciliation failed; empty when it succeeded.'),
  })
  .describe('Result of the last reconciliation of this resource.');

/** metav1.Condition, with the apiserver's own validation rules. */
export const Condition = z.object({
  type: z
    .string()
    .max(316)
    .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/)
    .describe('Type of condition in CamelCase, for example Ready.'),
  status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition.'),
  observedGeneration: z.int().min(0).optional().describe('metadata.generation the condition was set for.'),
  lastTransitionTime: z.iso.datetime().describe('Last time the condition changed from one status to another.'),
  reason: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
    .describe('Programmatic identifier of the last transition, in CamelCase.'),
  message: z.string().max(32768).describe('Human-readable details of the last transition.'),
});
export type Condition = z.infer<typeof Condition>;

export const Conditions = z
  .array(Condition)
  .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
  .describe('Current state of the resource; the Ready condition summarises it.');

/** A resource linking to another (SecurityPolicy -> API, API <- SecurityPolicy). */
export const LinkedResource = z.object({
  name: z.string(),
  namespace: z.string().optional(),
  kind: z.string().optional(),
});

/** Status fields every synced kind carries. */
export const syncedStatusFields = {
  latestTransaction: LatestTransaction.optional(),
  conditions: Conditions.optional(),
  observedGeneration: z.int().min(0).optional().describe('metadata.generation of the spec last reconciled.'),
  latestCRDSpecHash: z.string().optional().describe('sha256 of the payload last sent to the gateway or dashboard.'),
  latestGwSpecHash: z.string().optional().describe('sha256 of the object the gateway or dashboard returned after the last write.'),
};
