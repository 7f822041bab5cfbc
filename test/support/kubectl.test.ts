// How long a kubectl or helm run may take before the test kills it: the caller's limit, else 60 s, or the tool's own
// --timeout= plus 15 s when longer (a `rollout status --timeout=180s` killed at 60 s failed a loaded run).
import { describe, expect, it } from 'vitest';
import { toolTimeoutMs } from './kubectl.ts';

describe('toolTimeoutMs', () => {
  it("outlasts the tool's own --timeout= in seconds, minutes or hours, and never goes under 60 s", () => {
    expect(toolTimeoutMs(['rollout', 'status', 'deployment/x', '--timeout=180s'])).toBe(195_000);
    expect(toolTimeoutMs(['wait', '--for=delete', 'pod/x', '--timeout=3m'])).toBe(195_000);
    expect(toolTimeoutMs(['wait', '--timeout=1h'])).toBe(3_615_000);
    expect(toolTimeoutMs(['delete', 'apidefinition', 'x', '--timeout=30s'])).toBe(60_000);
    expect(toolTimeoutMs(['get', 'pods'])).toBe(60_000);
  });

  it("keeps the caller's limit when it gives one", () => {
    expect(toolTimeoutMs(['rollout', 'status', '--timeout=180s'], 10_000)).toBe(10_000);
  });
});
