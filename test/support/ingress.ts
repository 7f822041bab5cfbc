// Ingress-side objects for tests, as users write them: a Service in front of a test upstream (its port is the
// upstream's loopback port, so mapping `<svc>.<ns>.svc` to 127.0.0.1 in the gateway's upstream_hosts reaches it),
// Ingresses, IngressClasses, and the ApiDefinitions the operator made for an Ingress.
import { list } from './resources.ts';

export function service(name: string, port: number, portName = 'http'): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ name: portName, port, targetPort: port }], selector: { app: name } } };
}

export interface PathSpec {
  path: string;
  pathType?: 'Prefix' | 'Exact' | 'ImplementationSpecific';
  service: string;
  port: number | string;
}

export function backend(service: string, port: number | string): Record<string, unknown> {
  return { service: { name: service, port: typeof port === 'number' ? { number: port } : { name: port } } };
}

export function ingress(
  name: string,
  options: {
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    className?: string;
    rules?: { host?: string; paths: PathSpec[] }[];
    defaultBackend?: { service: string; port: number | string };
    tls?: { hosts: string[]; secretName: string }[];
  },
): Record<string, unknown> {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, annotations: options.annotations ?? {}, ...(options.labels ? { labels: options.labels } : {}) },
    spec: {
      ...(options.className ? { ingressClassName: options.className } : {}),
      ...(options.defaultBackend ? { defaultBackend: backend(options.defaultBackend.service, options.defaultBackend.port) } : {}),
      ...(options.tls ? { tls: options.tls } : {}),
      rules: (options.rules ?? []).map((rule) => ({
        ...(rule.host ? { host: rule.host } : {}),
        http: { paths: rule.paths.map((p) => ({ path: p.path, pathType: p.pathType ?? 'Prefix', backend: backend(p.service, p.port) })) },
      })),
    },
  };
}

export interface MadeApi {
  metadata: { name: string; uid: string; ownerReferences?: { kind: string; name: string }[] };
  spec: { domain?: string; certificates?: string[]; proxy: { listen_path: string; target_url: string } };
  status?: { api_id?: string; latestTransaction?: { status?: string } };
}

/** The ApiDefinitions the operator made for an Ingress (label gw.gw.io/ingress). */
export function apisOf(namespace: string, ingressName: string): Promise<MadeApi[]> {
  return list<MadeApi>('apidefinition', namespace, `gw.gw.io/ingress=${ingressName}`);
}
