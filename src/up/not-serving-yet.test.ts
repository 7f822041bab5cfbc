// retryWhileNotServing: an apply made right after an install is retried while the webhook's Service has no
// endpoint yet (the kubectl errors below are the ones `gw up --with-node` failed with), and only then.
import { describe, expect, it } from 'vitest';
import { isNotServingYet, retryWhileNotServing } from './not-serving-yet.ts';

const REFUSED =
  'Command failed: kubectl apply -n samples -f config/samples/httpbin.yaml\nError from server (InternalError): error when creating "config/samples/httpbin.yaml": Internal error occurred: failed calling webhook "mapidefinition.kb.io": failed to call webhook: Post "https://gw-operator-webhook-service.gw-operator-system.svc:443/mutate-gw-gw-io-v1alpha1-apidefinition?timeout=10s": dial tcp 10.0.0.87:443: connect: connection refused';
const NO_ENDPOINTS =
  'Error from server (InternalError): Internal error occurred: failed calling webhook "mapidefinition.kb.io": failed to call webhook: Post "https://gw-operator-webhook-service.gw-operator-system.svc:443/mutate?timeout=10s": no endpoints available for service "gw-operator-webhook-service"';
const INVALID = 'Error from server (Invalid): error when creating "httpbin.yaml": ApiDefinition.gw.gw.io "httpbin" is invalid: spec.name: Required value';

/** An attempt that fails with these messages in turn, then answers 'applied'. */
function failingThen(messages: string[]): { attempt: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    attempt: async () => {
      const message = messages[calls++];
      if (message !== undefined) throw new Error(message);
      return 'applied';
    },
    calls: () => calls,
  };
}

describe('retryWhileNotServing', () => {
  it('tells a Service without endpoints from other failures', () => {
    expect(isNotServingYet(new Error(REFUSED))).toBe(true);
    expect(isNotServingYet(new Error(NO_ENDPOINTS))).toBe(true);
    expect(isNotServingYet(new Error(INVALID))).toBe(false);
  });

  it('retries "connection refused" and "no endpoints" until the apply goes through', async () => {
    const { attempt, calls } = failingThen([REFUSED, NO_ENDPOINTS, REFUSED]);
    const retried: number[] = [];
    await expect(retryWhileNotServing(attempt, { pauseMs: 0, onRetry: (_error, made) => retried.push(made) })).resolves.toBe('applied');
    expect(calls()).toBe(4);
    expect(retried).toEqual([1, 2, 3]);
  });

  it('throws any other error at once', async () => {
    const { attempt, calls } = failingThen([REFUSED, INVALID]);
    await expect(retryWhileNotServing(attempt, { pauseMs: 0 })).rejects.toThrow('spec.name: Required value');
    expect(calls()).toBe(2);
  });

  it('gives up at the bound with the last error', async () => {
    const { attempt, calls } = failingThen([REFUSED, REFUSED, REFUSED, REFUSED]);
    await expect(retryWhileNotServing(attempt, { attempts: 3, pauseMs: 0 })).rejects.toThrow('connection refused');
    expect(calls()).toBe(3);
  });
});
