// The indexes the Ingress controller looks things up by: the resources an Ingress controls (by its uid), the
// Ingresses claiming a host+path (conflicts), the Ingresses whose backends name a Service (named ports), the
// Ingresses naming a template (template status, template changes), and the Ingresses naming a TLS Secret (renewals).
import type { Cache } from '../../kube/cache.ts';
import type { KubeObject } from '../../kube/object.ts';
import { ingressControllerRef, type IngressObject } from './kinds.ts';
import { claimOf, ingressRoutes } from './routes.ts';
import { templateKey, templateRefOf } from './templates.ts';
import { ingressTlsSecrets } from './tls.ts';

/** On ApiDefinitions, GwOasApiDefinitions and ConfigMaps: the uid of the Ingress that controls them. */
export const OWNER_INGRESS = 'ownerIngress';
/** On Ingresses: `<host>|<listen path>` of every route. */
export const CLAIMS = 'claims';
/** On Ingresses: `<namespace>/<name>` of every Service a backend names. */
export const BACKEND_SERVICES = 'backendServices';
/** On Ingresses: templateKey() of the template they name. */
export const TEMPLATE = 'template';
/** On Ingresses: `<namespace>/<name>` of every Secret spec.tls names. */
export const TLS_SECRETS = 'tlsSecrets';

export function addIngressIndexes(ingresses: Cache<IngressObject>, owned: Cache<KubeObject>[]): void {
  for (const cache of owned) {
    cache.addIndex(OWNER_INGRESS, (o) => {
      const ref = ingressControllerRef(o);
      return ref ? [ref.uid] : [];
    });
  }
  ingresses.addIndex(CLAIMS, (ingress) => ingressRoutes(ingress, () => undefined).map(claimOf));
  ingresses.addIndex(BACKEND_SERVICES, (ingress) => {
    const ns = ingress.metadata.namespace ?? 'default';
    const backends = [ingress.spec.defaultBackend, ...(ingress.spec.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend))];
    return [...new Set(backends.flatMap((b) => (b?.service ? [`${ns}/${b.service.name}`] : [])))];
  });
  ingresses.addIndex(TLS_SECRETS, ingressTlsSecrets);
  ingresses.addIndex(TEMPLATE, (ingress) => {
    const ref = templateRefOf(ingress);
    return ref && !('invalid' in ref) ? [templateKey(ref)] : [];
  });
}
