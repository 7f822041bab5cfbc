// Kubernetes object names as a resource may name them (the apiserver's own rules, k8s.io/apimachinery validation):
// a resource name is a DNS-1123 subdomain (at most 253), a namespace a DNS-1123 label (at most 63).

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function isResourceName(name: string): boolean {
  return name.length <= 253 && DNS1123_SUBDOMAIN.test(name);
}

export function isNamespaceName(namespace: string): boolean {
  return namespace.length <= 63 && DNS1123_LABEL.test(namespace);
}
