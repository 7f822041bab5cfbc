// Why a reconcile cannot sync a resource, as values the reconcile loop turns into conditions:
//   WaitingError      a dependency is not there yet (a referenced API not synced, a ConfigMap missing): the
//                     resource waits, with a condition naming it, and is reconciled again when it appears
//   InvalidSpecError  the resource asks for something that cannot work as written: retrying cannot help until
//                     it changes (a terminal error)
//   ContextError      its OperatorContext is missing or incomplete
export class WaitingError extends Error {
  /** The Ready condition's reason (default WaitingForDependency). */
  readonly reason: string;
  constructor(message: string, reason = 'WaitingForDependency') {
    super(message);
    this.name = 'WaitingError';
    this.reason = reason;
  }
}

export class InvalidSpecError extends Error {
  /** The Ready condition's reason (default InvalidSpec). */
  readonly reason: string;
  constructor(message: string, reason = 'InvalidSpec') {
    super(message);
    this.name = 'InvalidSpecError';
    this.reason = reason;
  }
}

export class ContextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextError';
  }
}
