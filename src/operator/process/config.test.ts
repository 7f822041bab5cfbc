// The operator's configuration: required keys, defaults, the secret fallback, and one problem per key.
import { describe, expect, it } from 'vitest';
import { OperatorConfigError, parseOperatorConfig } from './config.ts';

const required = { GW_OPERATOR_LICENSEKEY: 'lic', GW_MODE: 'ce', GW_URL: 'http://gw.gw-system:8080', GW_AUTH: 'secret-value', GW_ORG: 'org1' };

function problems(env: NodeJS.ProcessEnv, secret: Record<string, string> = {}): string[] {
  try {
    parseOperatorConfig(env, secret);
  } catch (error) {
    if (error instanceof OperatorConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('operator configuration', () => {
  it('applies the documented defaults', () => {
    expect(parseOperatorConfig(required)).toEqual({
      licenseKey: 'lic',
      mode: 'ce',
      url: 'http://gw.gw-system:8080',
      auth: 'secret-value',
      org: 'org1',
      insecureSkipVerify: false,
      watchNamespaces: [],
      ingressClass: 'gw',
      httpsIngressPort: 8443,
      httpIngressPort: 8080,
      ingressPublishAddresses: [],
      driftPeriodMs: 60_000,
      maxConcurrentReconciles: 16,
      kubeQps: 300,
      kubeBurst: 600,
      reloadDebounceMs: 200,
      reconcileTimeoutMs: 60_000,
    });
  });

  it('reports every missing required key, one line each, naming the key', () => {
    expect(problems({})).toEqual([
      'GW_OPERATOR_LICENSEKEY: required',
      'GW_MODE: required: ce (open-source gateway) or pro (dashboard)',
      'GW_URL: required: an http(s) URL of the gateway (ce) or dashboard (pro)',
      'GW_AUTH: required',
      'GW_ORG: required',
    ]);
  });

  it('reports invalid values without echoing them', () => {
    const found = problems({
      ...required,
      GW_MODE: 'enterprise',
      GW_URL: 'not a url',
      GW_HTTP_INGRESS_PORT: '70000',
      GW_TLS_INSECURE_SKIP_VERIFY: 'maybe',
      GW_DRIFT_PERIOD: '-1',
    });
    expect(found.map((line) => line.split(':')[0])).toEqual(['GW_MODE', 'GW_URL', 'GW_TLS_INSECURE_SKIP_VERIFY', 'GW_HTTP_INGRESS_PORT', 'GW_DRIFT_PERIOD']);
    expect(found.join('\n')).not.toContain('enterprise');
    expect(found.join('\n')).not.toContain('not a url');
  });

  it('takes keys the environment lacks from the secret, the environment winning', () => {
    const config = parseOperatorConfig(
      { GW_ORG: 'from-env' },
      { ...required, GW_ORG: 'from-secret', WATCH_NAMESPACE: ' team-a, team-b ,', GW_TLS_INSECURE_SKIP_VERIFY: 'true' },
    );
    expect(config).toMatchObject({ org: 'from-env', auth: 'secret-value', watchNamespaces: ['team-a', 'team-b'], insecureSkipVerify: true });
  });

  it('reads the tuning keys', () => {
    const config = parseOperatorConfig({
      ...required,
      GW_DRIFT_PERIOD: '2.5',
      GW_MAX_CONCURRENT_RECONCILES: '16',
      GW_KUBE_CLIENT_QPS: '50',
      GW_KUBE_CLIENT_BURST: '75',
      GW_RELOAD_DEBOUNCE_MS: '0',
      GW_RECONCILE_TIMEOUT: '5',
    });
    expect(config).toMatchObject({
      driftPeriodMs: 2500,
      maxConcurrentReconciles: 16,
      kubeQps: 50,
      kubeBurst: 75,
      reloadDebounceMs: 0,
      reconcileTimeoutMs: 5000,
    });
  });
});
