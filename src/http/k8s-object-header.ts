// x-gw-k8s-object: <Kind> <namespace>/<name>, the Kubernetes object a management write comes from. The operator
// sends it inside the reconcile of that object (operator/sync/gateways.ts); the dashboard records it as the owner of the
// API or policy written and refuses people's writes to it (dashboard/k8s-owner.ts).
export const K8S_OBJECT_HEADER = 'x-gw-k8s-object';
