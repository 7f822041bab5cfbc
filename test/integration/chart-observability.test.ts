// charts/gw-operator's optional monitoring objects with the real helm: the Grafana dashboard ConfigMap and the
// PrometheusRule are absent by default and, when switched on, select this release's operator series (the golden
// file of the 'observability' case in chart.test.ts pins their whole text).
import { describe, expect, it } from 'vitest';
import { find, helmTemplate, type KubeManifest } from '../support/chart.ts';

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

interface PrometheusRule extends KubeManifest {
  spec: { groups: { name: string; rules: { alert: string; expr: string; for: string; labels: Record<string, string> }[] }[] };
}

const ON = ['--set', 'grafanaDashboard.enabled=true', '--set', 'prometheusRule.enabled=true'];
const METRICS_SERVICE = 'gw-operator-controller-manager-metrics-service';

describe('charts/gw-operator monitoring objects', () => {
  it('renders neither the dashboard ConfigMap nor the PrometheusRule by default', async () => {
    const { objects } = await helmTemplate();
    expect(objects.filter((o) => o.kind === 'PrometheusRule')).toEqual([]);
    expect(objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard !== undefined)).toEqual([]);
  });

  it('grafanaDashboard.enabled: a ConfigMap labelled grafana_dashboard "1" holding a dashboard of controller-runtime series', async () => {
    const { objects } = await helmTemplate([...ON, '--set', 'grafanaDashboard.namespace=monitoring']);
    const configMap = find<KubeManifest & { data: Record<string, string> }>(objects, 'ConfigMap', 'gw-operator-grafana-dashboard');
    expect(configMap.metadata.namespace).toBe('monitoring');
    expect(configMap.metadata.labels).toMatchObject({ grafana_dashboard: '1', 'app.kubernetes.io/instance': 'gw-operator' });
    const dashboard = JSON.parse(configMap.data['gw-operator.json']!) as Dashboard;
    const expressions = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)).join('\n');
    for (const series of [
      'controller_runtime_reconcile_total',
      'controller_runtime_reconcile_errors_total',
      'controller_runtime_reconcile_time_seconds_bucket',
      'workqueue_depth',
      'workqueue_adds_total',
      'workqueue_queue_duration_seconds_bucket',
      'workqueue_work_duration_seconds_bucket',
      'workqueue_unfinished_work_seconds',
      'workqueue_longest_running_processor_seconds',
      'workqueue_retries_total',
      'rest_client_requests_total',
      'gw_operator_leader',
    ]) {
      expect(expressions).toContain(series);
    }
  });

  it("prometheusRule.enabled: alerts on reconcile errors, a growing work queue and no leader, over this release's metrics Service only", async () => {
    const { objects } = await helmTemplate([
      ...ON,
      '--set',
      'prometheusRule.labels.release=prometheus',
      '--set',
      'prometheusRule.for=5m',
      '--set',
      'prometheusRule.workqueueDepth=7',
    ]);
    const rule = find<PrometheusRule>(objects, 'PrometheusRule', 'gw-operator-alerts');
    expect(rule.metadata).toMatchObject({ namespace: 'gw-operator-system', labels: { release: 'prometheus' } });
    const rules = rule.spec.groups.flatMap((group) => group.rules);
    expect(rules.map((r) => r.alert)).toEqual(['GwOperatorReconcileErrors', 'GwOperatorWorkqueueDepthGrowing', 'GwOperatorNoLeader']);
    for (const r of rules) {
      expect(r.for).toBe('5m');
      expect(r.expr).toContain(`job="${METRICS_SERVICE}", namespace="gw-operator-system"`);
    }
    expect(rules[0]!.expr).toContain('rate(controller_runtime_reconcile_errors_total{');
    expect(rules[1]!.expr).toMatch(/workqueue_depth\{[^}]*\}\) > 7 and/);
    expect(rules[2]!.expr).toContain('gw_operator_leader{');
    // The job label the rules select is the metrics Service the ServiceMonitor scrapes.
    expect(objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name)).toContain(METRICS_SERVICE);
  });
});
