// Retrying a step that runs right after an install, while what it calls is still coming up. A Deployment whose pods
// are Ready is not yet reachable through its Service: the Service's endpoints follow a moment later, and until then
// an apply that goes through an admission webhook fails with "connection refused" (or "no endpoints available").
// Those two errors, and only those, are retried, at a fixed pause, up to a bound; any other error, and the last one
// at the bound, is thrown as it is.

/** True for the errors of a Service (a webhook's, an API's) that has no serving endpoint yet. */
export function isNotServingYet(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /connect: connection refused|ECONNREFUSED|no endpoints available for service/i.test(message);
}

export interface NotServingRetry {
  /** How many attempts in all. Default 60. */
  attempts?: number;
  /** Pause between attempts. Default 1 s (60 attempts: about a minute). */
  pauseMs?: number;
  /** Told of each retried failure (progress output). */
  onRetry?: (error: Error, attempt: number) => void;
}

/** Runs attempt until it succeeds, retrying only while isNotServingYet(its error). */
export async function retryWhileNotServing<T>(attempt: () => Promise<T>, options: NotServingRetry = {}): Promise<T> {
  const attempts = options.attempts ?? 60;
  const pauseMs = options.pauseMs ?? 1_000;
  for (let made = 1; ; made++) {
    try {
      return await attempt();
    } catch (error) {
      if (made >= attempts || !isNotServingYet(error)) throw error;
      options.onRetry?.(error as Error, made);
      await new Promise((resolvePause) => setTimeout(resolvePause, pauseMs));
    }
  }
}
