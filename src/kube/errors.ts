// Errors of the Kubernetes API as values: the HTTP status, the apiserver's `reason` (NotFound, Conflict,
// AlreadyExists, Expired/Gone, Invalid, Forbidden, ...) and its message, so callers branch on meaning, not text.
export class KubeApiError extends Error {
  readonly status: number;
  readonly reason: string;

  constructor(status: number, reason: string, message: string) {
    super(message);
    this.name = 'KubeApiError';
    this.status = status;
    this.reason = reason;
  }

  get notFound(): boolean {
    return this.status === 404;
  }

  get conflict(): boolean {
    return this.status === 409;
  }

  /** 410: the resourceVersion asked for is older than the apiserver keeps; list again. */
  get gone(): boolean {
    return this.status === 410 || this.reason === 'Expired' || this.reason === 'Gone';
  }
}

/** A write attempted after the client was fenced (refuseWrites: this replica lost its Lease); never sent. */
export class WritesRefusedError extends Error {
  readonly code = 'writes_refused';
  constructor(message: string) {
    super(message);
    this.name = 'WritesRefusedError';
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof KubeApiError && error.notFound;
}

export function isConflict(error: unknown): boolean {
  return error instanceof KubeApiError && error.conflict;
}
