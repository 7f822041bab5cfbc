// Compiling an API into its pipeline: the steps of step-order.ts an API enables, in that order, each under its
// name (the label of gw_step_duration_seconds), and nothing an API does not configure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayConfigSchema } from '../config.ts';
import { compileApi } from '../definition/compile.ts';
import { GatewayMetrics } from '../metrics.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { EmbeddedStore } from '../store/embedded.ts';
import { compileRoute } from './compiled-api.ts';
import { STEP_ORDER } from './step-order.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-compiled-api-'));
const store = EmbeddedStore.open(dir, {});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const services = {
  store,
  config: GatewayConfigSchema.parse({ secret: 'x' }),
  metrics: new GatewayMetrics(),
  log: pino({ level: 'silent' }),
  now: Date.now,
} as unknown as PipelineServices;

const compiled = (extra: Record<string, unknown>) =>
  compileRoute(
    compileApi({
      id: 'a',
      format: 'classic',
      definition: { name: 'a', api_id: 'a', org_id: 'o', active: true, proxy: { listen_path: '/a/', target_url: 'http://upstream.test' }, ...extra },
    }),
    services,
  );

describe('compileRoute', () => {
  it('gives every step a distinct name', () => {
    const names = STEP_ORDER.map((step) => step.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives a keyless API only the version step and the upstream', () => {
    const api = compiled({ use_keyless: true });
    expect(api.stepNames).toEqual(['version', 'upstream']);
    expect(api.steps).toHaveLength(2);
    expect(api.stepTimers).toHaveLength(2);
    expect(api.responseSteps).toEqual([]);
  });

  it('builds the enabled steps in the list order, authentication before limits before transforms', () => {
    const api = compiled({
      use_keyless: false,
      CORS: { enable: true },
      extended_paths: { transform_headers: [{ path: '/x', method: 'GET', add_headers: { 'X-A': '1' } }], circuit_breakers: [] },
    });
    expect(api.stepNames).toEqual(['cors', 'version', 'auth-token', 'access-rights', 'key-limits', 'transform-request-headers', 'upstream']);
  });

  it('orders response steps as their descriptors, the circuit breaker first', () => {
    const api = compiled({
      use_keyless: false,
      CORS: { enable: true },
      extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 0.5, samples: 10, return_to_service_after: 30 }] },
    });
    expect(api.responseSteps.map((step) => step.name)).toEqual(['circuit-breaker', 'cors', 'rate-limit-headers']);
  });
});
