// What a custom resource kind is made of: its names, its spec and status schemas, and its `kubectl get` columns.
// Every kind file exports one KindDefinition; kinds.ts lists them; scripts/gen-crds.ts turns each into a CRD.
import type { z } from 'zod';

export interface PrinterColumn {
  /** Column header; kubectl prints it in upper case. */
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  /** 0 shows in `kubectl get`; higher only with `-o wide`. */
  priority?: number;
}

export interface KindDefinition {
  kind: string;
  /** Lower-case plural used in URLs and `kubectl get <plural>`. */
  plural: string;
  shortNames: string[];
  /** One sentence for `kubectl explain <kind>`. */
  description: string;
  spec: z.ZodType;
  status: z.ZodType;
  /** Columns of `kubectl get`; an AGE column is appended to every kind. */
  printerColumns: PrinterColumn[];
}

/** SYNCSTATUS: outcome of the last reconciliation (status.latestTransaction.status), on every synced kind. */
export const syncStatusColumn: PrinterColumn = { name: 'SyncStatus', type: 'string', jsonPath: '.status.latestTransaction.status' };

/** READY and REASON: the Ready condition's status and reason, on every kind (the message is in `kubectl describe`). */
export const readinessColumns: PrinterColumn[] = [
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].reason' },
];
