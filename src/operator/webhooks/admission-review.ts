// The AdmissionReview wire format (admission.k8s.io/v1): parsing what the apiserver sends, and the responses we
// answer with. Denials follow controller-runtime's convention for validators: field errors become a metav1.Status
// like apierrors.NewInvalid builds (code 422, reason Invalid, details.causes one per field, message
// `<Kind>.<group> "<name>" is invalid: <errors>`); any other refusal is 403 Forbidden. The apiserver prefixes the
// message with `admission webhook "<name>" denied the request: ` and kubectl prints it as is.
import { z } from 'zod';
import { describeIssues } from '../../domain/zod-issues.ts';
import { HttpError } from '../../http/errors.ts';
import { parseJsonText } from '../../http/json-body.ts';
import { CAUSE_TYPE, describeFieldError, errorBody, type FieldError } from './field-errors.ts';
import type { PatchOperation } from './json-patch.ts';

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';

const GroupVersionKind = z.object({ group: z.string(), version: z.string(), kind: z.string() });

export const AdmissionRequest = z.object({
  uid: z.string().min(1),
  kind: GroupVersionKind,
  resource: z.object({ group: z.string(), version: z.string(), resource: z.string() }).optional(),
  subResource: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  operation: z.enum(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
  object: z.unknown().optional(),
  oldObject: z.unknown().optional(),
  dryRun: z.boolean().optional(),
});
export type AdmissionRequest = z.infer<typeof AdmissionRequest>;

const AdmissionReviewRequest = z.object({
  apiVersion: z.literal(ADMISSION_API_VERSION),
  kind: z.literal('AdmissionReview'),
  request: AdmissionRequest,
});

/**
 * The request of an AdmissionReview body, read by the shared bounded parser (depth and string checks); an HttpError
 * (400 `malformed`) when it is not JSON, too deep, or not an AdmissionReview request.
 */
export function parseAdmissionReview(body: string): AdmissionRequest {
  const parsed = AdmissionReviewRequest.safeParse(parseJsonText(body));
  if (!parsed.success) {
    throw new HttpError('malformed', `not an ${ADMISSION_API_VERSION} AdmissionReview request: ${describeIssues(parsed.error)}`);
  }
  return parsed.data.request;
}

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

/** metav1.Status as carried in AdmissionResponse.status. */
export interface Status {
  status: 'Success' | 'Failure';
  code: number;
  reason?: string;
  message?: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[] };
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  patchType?: 'JSONPatch';
  /** base64 of the JSON Patch. */
  patch?: string;
  warnings?: string[];
  status?: Status;
}

export interface AdmissionReviewResponse {
  apiVersion: typeof ADMISSION_API_VERSION;
  kind: 'AdmissionReview';
  response: AdmissionResponse;
}

export function review(response: AdmissionResponse): AdmissionReviewResponse {
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response };
}

/** Allowed; with the patch (when not empty) and the warnings (when any). */
export function allow(uid: string, options: { patch?: PatchOperation[]; warnings?: string[] } = {}): AdmissionResponse {
  const response: AdmissionResponse = { uid, allowed: true };
  if (options.patch && options.patch.length > 0) {
    response.patchType = 'JSONPatch';
    response.patch = Buffer.from(JSON.stringify(options.patch)).toString('base64');
  }
  if (options.warnings && options.warnings.length > 0) response.warnings = options.warnings;
  return response;
}

export interface ObjectIdentity {
  group: string;
  kind: string;
  name: string;
}

/** Refused for field errors: 422 Invalid, one cause per error, as apierrors.NewInvalid words it. */
export function rejectInvalid(uid: string, object: ObjectIdentity, errors: FieldError[], warnings: string[] = []): AdmissionResponse {
  const described = errors.map(describeFieldError);
  const list = described.length === 1 ? described[0]! : `[${described.join(', ')}]`;
  const response: AdmissionResponse = {
    uid,
    allowed: false,
    status: {
      status: 'Failure',
      code: 422,
      reason: 'Invalid',
      message: `${object.kind}.${object.group} ${JSON.stringify(object.name)} is invalid: ${list}`,
      details: {
        name: object.name,
        group: object.group,
        kind: object.kind,
        causes: errors.map((error) => ({ reason: CAUSE_TYPE[error.type], message: errorBody(error), field: error.field })),
      },
    },
  };
  if (warnings.length > 0) response.warnings = warnings;
  return response;
}

/** Refused for a reason that is not about one field: 403 Forbidden. */
export function rejectForbidden(uid: string, message: string): AdmissionResponse {
  return { uid, allowed: false, status: { status: 'Failure', code: 403, reason: 'Forbidden', message } };
}
