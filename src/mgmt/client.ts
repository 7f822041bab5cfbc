// What the operator needs from a gateway or a dashboard, as one interface: the gateway implementation (ce mode,
// gateway.ts) and the dashboard one (pro mode) sit behind it, so controllers never know which they talk to.
// Every write is an upsert by an explicit id and every delete answers whether something was deleted, so a retry
// after a network error can neither duplicate nor fail spuriously. Failures are MgmtError values with a kind.
// Every call takes an optional AbortSignal (a reconcile's): aborted, the call stops at once and nothing more is sent.

export type MgmtErrorKind =
  /** 404 where the caller needed the object. */
  | 'not_found'
  | 'conflict'
  /** 401/403: the credentials are wrong or lack permission. */
  | 'unauthorized'
  /** 400/413/422: the payload was refused; retrying the same one cannot help. */
  | 'invalid'
  /** Connection refused, reset or timed out, or 502/503/504: retrying later may help. */
  | 'unavailable'
  | 'failed';

export class MgmtError extends Error {
  readonly kind: MgmtErrorKind;
  readonly status: number | undefined;

  constructor(kind: MgmtErrorKind, message: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MgmtError';
    this.kind = kind;
    this.status = status;
  }
}

export type Definition = Record<string, unknown>;

/** An API a gateway's load refused: its id, a CamelCase reason, the gateway's message, the API keeping its path. */
export interface ApiLoadProblem {
  id: string;
  reason: string;
  message: string;
  conflictsWith?: string | undefined;
}

import type { ChangeCursor } from '../domain/change-cursor.ts';

export type { ChangeCursor };

export interface ManagementClient {
  readonly mode: 'ce' | 'pro';
  /** Where it talks to (for messages and grouping; never carries credentials). */
  readonly url: string;

  getApi(id: string, signal?: AbortSignal): Promise<Definition | undefined>;
  /** Every Classic API (OAS ones in their Classic view). */
  listApis(signal?: AbortSignal): Promise<Definition[]>;
  putApi(id: string, definition: Definition, signal?: AbortSignal): Promise<void>;
  deleteApi(id: string, signal?: AbortSignal): Promise<boolean>;

  getOasApi(id: string, signal?: AbortSignal): Promise<Definition | undefined>;
  listOasApis(signal?: AbortSignal): Promise<Definition[]>;
  putOasApi(id: string, document: Definition, signal?: AbortSignal): Promise<void>;
  deleteOasApi(id: string, signal?: AbortSignal): Promise<boolean>;

  getPolicy(id: string, signal?: AbortSignal): Promise<Definition | undefined>;
  listPolicies(signal?: AbortSignal): Promise<Definition[]>;
  putPolicy(id: string, policy: Definition, signal?: AbortSignal): Promise<void>;
  deletePolicy(id: string, signal?: AbortSignal): Promise<boolean>;

  /**
   * Waits until the server's management objects changed after `cursor` (a long poll of up to CHANGE_POLL_SECONDS;
   * no cursor: answers where the feed stands at once). Answers the new cursor — the same one when nothing changed —
   * or undefined when the server has no change feed (an older gateway or dashboard).
   */
  waitForChange(cursor: ChangeCursor | undefined, signal?: AbortSignal): Promise<ChangeCursor | undefined>;

  /** Makes written changes live (the gateway group reloads; a dashboard pushes by itself). */
  reload(signal?: AbortSignal): Promise<void>;

  /**
   * What the server's last load could not serve, by API id (a gateway's GET /gw/load-problems, read after reload()
   * answered); absent where the server cannot know (a dashboard: its gateways load by themselves).
   */
  loadProblems?(signal?: AbortSignal): Promise<ApiLoadProblem[]>;

  /** Uploads a PEM certificate (its private key may follow) for the organisation; answers its id (organisation id +
   * SHA-256 fingerprint: uploading the same certificate again answers the same id). */
  uploadCertificate(pem: string, org: string, signal?: AbortSignal): Promise<string>;
}
