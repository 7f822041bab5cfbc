// The indexes the Ingress controller looks things up by: the ApiDefinitions an Ingress owns (by its uid), the
// Ingresses claiming a host+path (conflicts), and the Ingresses whose backends name a Service (named ports).
import type { Cache } from '../../kube/cache.ts';
import type { ApiDefinitionObject } from '../resources.ts';
import type { IngressObject } from './kinds.ts';
import { claimOf, ingressRoutes } from './routes.ts';

/** On ApiDefinitions: the uid of the Ingress that controls them. */
export const OWNER_INGRESS = 'ownerIngress';
/** On Ingresses: `<host>|<listen path>` of every route. */
export const CLAIMS = 'claims';
/** On Ingresses: `<namespace>/<name>` of every Service a backend names. */
export const BACKEND_SERVICES = 'backendServices';

export function addIngressIndexes(ingresses: Cache<IngressObject>, apis: Cache<ApiDefinitionObject>): void {
  apis.addIndex(OWNER_INGRESS, (api) => (api.metadata.ownerReferences ?? []).filter((ref) => ref.kind === 'Ingress' && ref.controller).map((ref) => ref.uid));
  ingresses.addIndex(CLAIMS, (ingress) => ingressRoutes(ingress, () => undefined).map(claimOf));
  ingresses.addIndex(BACKEND_SERVICES, (ingress) => {
    const ns = ingress.metadata.namespace ?? 'default';
    const backends = [ingress.spec.defaultBackend, ...(ingress.spec.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend))];
    return [...new Set(backends.flatMap((b) => (b?.service ? [`${ns}/${b.service.name}`] : [])))];
  });
}
