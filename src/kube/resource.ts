// A kind of the Kubernetes API and the URL paths of its objects: core (`/api/v1`) or a group
// (`/apis/<group>/<version>`), namespaced or not.
export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

export function apiVersionOf(resource: ResourceType): string {
  return resource.group ? `${resource.group}/${resource.version}` : resource.version;
}

/** Path of the collection (namespace undefined: across all namespaces) or of one object. */
export function resourcePath(resource: ResourceType, namespace?: string, name?: string, subresource?: string): string {
  const root = resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`;
  const scope = resource.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const object = name ? `/${encodeURIComponent(name)}` : '';
  return `${root}${scope}/${resource.plural}${object}${subresource ? `/${subresource}` : ''}`;
}

export const CoreResources = {
  configMap: { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true },
  secret: { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true },
  event: { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true },
  namespace: { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false },
  lease: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true },
} as const satisfies Record<string, ResourceType>;
