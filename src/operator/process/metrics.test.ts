// OperatorMetrics: each reconcile outcome counted both in gw's own series and as controller-runtime counts it
// (a delayed requeue is requeue_after, a terminal error is an error and a terminal error), controller-runtime's
// per-controller series present at zero before any reconcile, the work queue read at scrape time, and client-go's
// rest_client_requests_total labels.
import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../kube/workqueue.ts';
import { OperatorMetrics } from './metrics.ts';

/** `name{labels} value` lines of one series family from the registry's text exposition. */
async function samples(metrics: OperatorMetrics, name: string): Promise<string[]> {
  return (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith(`${name}{`));
}

describe('OperatorMetrics', () => {
  it("starts controller-runtime's series of a controller at zero before its first reconcile", async () => {
    const metrics = new OperatorMetrics();
    metrics.queueHooks('ApiDefinition');
    expect(await samples(metrics, 'controller_runtime_reconcile_total')).toEqual([
      'controller_runtime_reconcile_total{controller="ApiDefinition",result="success"} 0',
      'controller_runtime_reconcile_total{controller="ApiDefinition",result="error"} 0',
      'controller_runtime_reconcile_total{controller="ApiDefinition",result="requeue"} 0',
      'controller_runtime_reconcile_total{controller="ApiDefinition",result="requeue_after"} 0',
    ]);
    for (const name of [
      'controller_runtime_reconcile_errors_total',
      'controller_runtime_terminal_reconcile_errors_total',
      'workqueue_adds_total',
      'workqueue_retries_total',
    ]) {
      expect(await samples(metrics, name)).toEqual([`${name}{${name.startsWith('workqueue') ? 'name' : 'controller'}="ApiDefinition"} 0`]);
    }
  });

  it("counts outcomes in gw's series and as controller-runtime results", async () => {
    const metrics = new OperatorMetrics();
    metrics.queueHooks('SecurityPolicy');
    const observe = metrics.observer('SecurityPolicy');
    observe('success', 10);
    observe('requeue', 10);
    observe('error', 10);
    observe('terminal', 10);
    expect(await samples(metrics, 'controller_runtime_reconcile_total')).toEqual([
      'controller_runtime_reconcile_total{controller="SecurityPolicy",result="success"} 1',
      'controller_runtime_reconcile_total{controller="SecurityPolicy",result="error"} 2',
      'controller_runtime_reconcile_total{controller="SecurityPolicy",result="requeue"} 0',
      'controller_runtime_reconcile_total{controller="SecurityPolicy",result="requeue_after"} 1',
    ]);
    expect(await samples(metrics, 'controller_runtime_reconcile_errors_total')).toEqual([
      'controller_runtime_reconcile_errors_total{controller="SecurityPolicy"} 2',
    ]);
    expect(await samples(metrics, 'controller_runtime_terminal_reconcile_errors_total')).toEqual([
      'controller_runtime_terminal_reconcile_errors_total{controller="SecurityPolicy"} 1',
    ]);
    expect(await samples(metrics, 'controller_runtime_reconcile_time_seconds_count')).toEqual([
      'controller_runtime_reconcile_time_seconds_count{controller="SecurityPolicy"} 4',
    ]);
    expect(await samples(metrics, 'gw_operator_reconciles_total')).toEqual([
      'gw_operator_reconciles_total{kind="SecurityPolicy",outcome="success"} 1',
      'gw_operator_reconciles_total{kind="SecurityPolicy",outcome="requeue"} 1',
      'gw_operator_reconciles_total{kind="SecurityPolicy",outcome="error"} 1',
      'gw_operator_reconciles_total{kind="SecurityPolicy",outcome="terminal"} 1',
    ]);
  });

  it('feeds gw_operator_queue_wait_seconds and the workqueue_* series from one set of queue hooks, and reads depth at scrape', async () => {
    const metrics = new OperatorMetrics();
    let now = 0;
    const queue = new WorkQueue<string>(undefined, () => now, metrics.queueHooks('OperatorContext'));
    metrics.watchQueue('OperatorContext', queue);
    queue.add('ns/a');
    queue.add('ns/b');
    now += 2_000;
    await queue.get();
    expect(await samples(metrics, 'workqueue_depth')).toEqual(['workqueue_depth{name="OperatorContext"} 1']);
    expect(await samples(metrics, 'workqueue_longest_running_processor_seconds')).toEqual([
      'workqueue_longest_running_processor_seconds{name="OperatorContext"} 0',
    ]);
    now += 3_000;
    expect(await samples(metrics, 'workqueue_unfinished_work_seconds')).toEqual(['workqueue_unfinished_work_seconds{name="OperatorContext"} 3']);
    queue.done('ns/a');
    expect(await samples(metrics, 'workqueue_adds_total')).toEqual(['workqueue_adds_total{name="OperatorContext"} 2']);
    expect(await samples(metrics, 'workqueue_queue_duration_seconds_sum')).toEqual(['workqueue_queue_duration_seconds_sum{name="OperatorContext"} 2']);
    expect(await samples(metrics, 'workqueue_work_duration_seconds_sum')).toEqual(['workqueue_work_duration_seconds_sum{name="OperatorContext"} 3']);
    expect(await samples(metrics, 'gw_operator_queue_wait_seconds_sum')).toEqual(['gw_operator_queue_wait_seconds_sum{kind="OperatorContext"} 2']);
    queue.shutDown();
  });

  it('labels Kubernetes API requests with code, method and host as client-go does', async () => {
    const metrics = new OperatorMetrics();
    metrics.kubeRequest('GET', '200', '10.0.0.1:6443');
    metrics.kubeRequest('PATCH', '<error>', '10.0.0.1:6443');
    expect(await samples(metrics, 'rest_client_requests_total')).toEqual([
      'rest_client_requests_total{code="200",method="GET",host="10.0.0.1:6443"} 1',
      'rest_client_requests_total{code="<error>",method="PATCH",host="10.0.0.1:6443"} 1',
    ]);
  });
});
