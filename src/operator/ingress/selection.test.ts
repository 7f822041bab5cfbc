import { describe, expect, it } from 'vitest';
import type { IngressClassObject, IngressObject } from './kinds.ts';
import { isOurIngress } from './selection.ts';

const cls = (name: string, controller: string, isDefault = false): IngressClassObject => ({
  metadata: { name, ...(isDefault ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } : {}) },
  spec: { controller },
});
const lookup = (classes: IngressClassObject[]) => ({ get: (n: string) => classes.find((c) => c.metadata.name === n), list: () => classes });
const ing = (annotation?: string, className?: string): IngressObject => ({
  metadata: { name: 'i', namespace: 'n', ...(annotation !== undefined ? { annotations: { 'kubernetes.io/ingress.class': annotation } } : {}) },
  spec: className ? { ingressClassName: className } : {},
});

describe('isOurIngress', () => {
  const classes = [cls('gw-class', 'gw.gw.io/ingress-controller'), cls('nginx', 'k8s.io/ingress-nginx')];
  it('follows the class annotation alone when it is set', () => {
    expect(isOurIngress(ing('gw'), 'gw', lookup(classes))).toBe(true);
    expect(isOurIngress(ing('nginx', 'gw-class'), 'gw', lookup(classes))).toBe(false);
    expect(isOurIngress(ing('custom'), 'custom', lookup(classes))).toBe(true);
  });
  it('follows spec.ingressClassName to an IngressClass with our controller', () => {
    expect(isOurIngress(ing(undefined, 'gw-class'), 'gw', lookup(classes))).toBe(true);
    expect(isOurIngress(ing(undefined, 'nginx'), 'gw', lookup(classes))).toBe(false);
    expect(isOurIngress(ing(undefined, 'missing'), 'gw', lookup(classes))).toBe(false);
  });
  it('serves an Ingress with neither only when our IngressClass is the default', () => {
    expect(isOurIngress(ing(), 'gw', lookup(classes))).toBe(false);
    expect(isOurIngress(ing(), 'gw', lookup([...classes, cls('gw-default', 'gw.gw.io/ingress-controller', true)]))).toBe(true);
    expect(isOurIngress(ing(), 'gw', lookup([cls('nginx', 'k8s.io/ingress-nginx', true)]))).toBe(false);
  });
});
