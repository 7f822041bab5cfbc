// reconcileHeaders(): what the operator's management calls say about the reconcile making them — its id always,
// and the object it reconciles (x-gw-k8s-object, the owner the dashboard records) only for the kinds whose
// reconcile writes the API or policy that comes from them.
import { describe, expect, it } from 'vitest';
import { inReconcile } from '../../kube/reconcile-id.ts';
import { reconcileHeaders } from './gateways.ts';

const ID = '33333333-3333-4333-8333-333333333333';

describe('reconcileHeaders', () => {
  it('sends nothing outside a reconcile', () => {
    expect(reconcileHeaders()).toEqual({});
  });

  it('names the reconciled ApiDefinition, OAS API and SecurityPolicy as the owner of what it writes', () => {
    for (const object of [
      'ApiDefinition team-a/httpbin',
      'GwOasApiDefinition team-a/petstore',
      'GwStreamsApiDefinition team-a/events',
      'SecurityPolicy team-a/gold',
    ]) {
      expect(inReconcile(ID, () => reconcileHeaders(), object)).toEqual({ 'x-gw-reconcile-id': ID, 'x-gw-k8s-object': object });
    }
  });

  it('names no owner for kinds that write other objects than their own (an OperatorContext, an Ingress) or for none', () => {
    expect(inReconcile(ID, () => reconcileHeaders(), 'OperatorContext team-a/default')).toEqual({ 'x-gw-reconcile-id': ID });
    expect(inReconcile(ID, () => reconcileHeaders(), 'Ingress team-a/web')).toEqual({ 'x-gw-reconcile-id': ID });
    expect(inReconcile(ID, () => reconcileHeaders())).toEqual({ 'x-gw-reconcile-id': ID });
  });
});
