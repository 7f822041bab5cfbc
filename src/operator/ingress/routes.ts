// An Ingress's routes: one per rule × path plus the defaultBackend, each a host (empty: any host), the listen path
// the gateway matches and the upstream URL `http://<service>.<namespace>.svc:<port>`, a named port resolved
// through the Service. Path types as Kubernetes defines them: Prefix matches on whole segments and ignores a
// trailing '/', which is exactly the gateway's listen-path matching; ImplementationSpecific is served as Prefix;
// Exact matches the path alone (the gateway's `proxy.listen_path_exact`; a trailing '/' is ignored there too).
// Pure: the same Ingress and Services always give the same routes; problems are returned per route, never thrown.
import { createHash } from 'node:crypto';
import { isAcmeSolverPath } from './acme.ts';
import type { IngressBackend, IngressObject, PathType, ServiceObject } from './kinds.ts';

export interface Route {
  host: string;
  listenPath: string;
  exact: boolean;
  /** An ACME HTTP-01 solver path (acme.ts): served keyless whatever the template. */
  acme: boolean;
  /** The path as the Ingress wrote it, for messages. */
  path: string;
  pathType: PathType;
  /** Where the route came from, for messages: `rule[0].path[1]` or `defaultBackend`. */
  origin: string;
}

export type ResolvedRoute = Route & ({ upstream: string; problem?: undefined } | { upstream?: undefined; problem: string });

export type ServiceLookup = (namespace: string, name: string) => ServiceObject | undefined;

/** The key two Ingresses conflict on: the same host and listen path. */
export function claimOf(route: Pick<Route, 'host' | 'listenPath'>): string {
  return `${route.host}|${route.listenPath}`;
}

export function ingressRoutes(ingress: IngressObject, services: ServiceLookup): ResolvedRoute[] {
  const namespace = ingress.metadata.namespace ?? 'default';
  const routes: ResolvedRoute[] = [];
  const seen = new Set<string>();
  const add = (route: Route, backend: IngressBackend): void => {
    const claim = claimOf(route);
    if (seen.has(claim)) return; // Kubernetes: the first path of a host wins within one Ingress
    seen.add(claim);
    routes.push({ ...route, ...resolveBackend(namespace, backend, services, route.origin) });
  };
  (ingress.spec.rules ?? []).forEach((rule, r) => {
    (rule.http?.paths ?? []).forEach((p, i) => {
      const path = p.path ?? '/';
      add(
        {
          host: (rule.host ?? '').toLowerCase(),
          listenPath: normalizePath(path),
          exact: p.pathType === 'Exact',
          acme: isAcmeSolverPath(ingress, path, p.backend),
          path,
          pathType: p.pathType,
          origin: `spec.rules[${r}].http.paths[${i}]`,
        },
        p.backend,
      );
    });
  });
  if (ingress.spec.defaultBackend) {
    add({ host: '', listenPath: '/', exact: false, acme: false, path: '/', pathType: 'Prefix', origin: 'spec.defaultBackend' }, ingress.spec.defaultBackend);
  }
  return routes;
}

/** A leading '/', no empty segments, no trailing '/' (Prefix `/foo/` is `/foo` in Kubernetes too). */
export function normalizePath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return `/${segments.join('/')}`;
}

function resolveBackend(namespace: string, backend: IngressBackend, services: ServiceLookup, origin: string): { upstream: string } | { problem: string } {
  const service = backend.service;
  if (!service) return { problem: `${origin}: only Service backends are supported (resource backends are not)` };
  const port = service.port ?? {};
  if (port.number !== undefined) return { upstream: `http://${service.name}.${namespace}.svc:${port.number}` };
  if (!port.name) return { problem: `${origin}: backend.service.port needs a number or a name` };
  const found = services(namespace, service.name);
  if (!found) return { problem: `${origin}: Service ${namespace}/${service.name} does not exist (needed to resolve port ${port.name})` };
  const named = found.spec.ports?.find((p) => p.name === port.name);
  if (!named) return { problem: `${origin}: Service ${namespace}/${service.name} has no port named ${port.name}` };
  return { upstream: `http://${service.name}.${namespace}.svc:${named.port}` };
}

/** The name of the ApiDefinition serving a route: stable per Ingress + host + listen path, so a backend or path
 * type change updates it in place (same API id, no window without a route). */
export function childName(ingressName: string, route: Pick<Route, 'host' | 'listenPath'>): string {
  const hash = createHash('sha256').update(`${route.host}\u0000${route.listenPath}`).digest('hex').slice(0, 10);
  return `${ingressName.slice(0, 200)}-${hash}`;
}
