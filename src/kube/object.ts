// The shape every Kubernetes object shares, as much of it as the machinery reads. kube/ knows nothing else about
// objects: kinds, specs and statuses belong to the code that uses this package.
export interface ObjectMeta {
  name: string;
  /** On create only: the apiserver appends a random suffix (name then stays empty). */
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/** `namespace/name`, or `name` for cluster-scoped objects: the key of caches and work queues. */
export function objectKey(object: KubeObject): string {
  return keyOf(object.metadata.namespace, object.metadata.name);
}

export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf('/');
  return slash === -1 ? { namespace: undefined, name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
