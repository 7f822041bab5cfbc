// Admission of an ApiDefinition's listen path against the ones the cluster already holds (what the operator's
// cache knows: its watched namespaces): two active APIs synced through the same OperatorContext (same gateway) on
// the same domain and listen path cannot both be served — the gateway serves one and refuses the other at load
// (ListenPathConflict) — so the second is refused here, naming the first. Listen paths compare as the gateway's
// router does (`/a/` is `/a`); an Ingress template (never synced), an inactive API and the object itself are
// ignored. Objects of other kinds (GwOasApiDefinition) are not looked at: the gateway's load report covers them.
import { duplicate, type FieldError } from './field-errors.ts';
import { checkListenPath } from '../../definition-rules/proxy.ts';
import { asObject } from '../../definition-rules/untyped.ts';

/** What admission may know about the cluster: the ApiDefinitions the operator's cache holds. */
export interface AdmissionCluster {
  apiDefinitions(): Iterable<{ metadata: { name: string; namespace?: string | undefined; labels?: Record<string, string> | undefined }; spec: unknown }>;
}

const TEMPLATE_LABEL = 'gw.gw.io/template';

interface Route {
  context: string;
  domain: string;
  listenPath: string;
}

function routeOf(spec: unknown, namespace: string): Route | undefined {
  const fields = asObject(spec);
  if (!fields || fields.active === false) return undefined;
  const proxy = asObject(fields.proxy);
  if (typeof proxy?.listen_path !== 'string') return undefined;
  if (checkListenPath(proxy.listen_path, 'spec.proxy.listen_path').length > 0) return undefined; // reported by the gateway rules
  // As the gateway's router keys it (gateway/definition/listen-path.ts): no empty segments, no trailing '/'.
  const listenPath = `/${proxy.listen_path
    .split('/')
    .filter((segment) => segment !== '')
    .join('/')}`;
  const ref = asObject(fields.contextRef);
  const context = typeof ref?.name === 'string' ? `${typeof ref.namespace === 'string' && ref.namespace ? ref.namespace : namespace}/${ref.name}` : '';
  return { context, domain: typeof fields.domain === 'string' ? fields.domain.toLowerCase() : '', listenPath };
}

/** A Duplicate error on spec.proxy.listen_path when another ApiDefinition holds the same route. */
export function checkListenPathConflict(
  spec: unknown,
  object: { name: string; namespace: string; labels?: Record<string, string> | undefined },
  cluster: AdmissionCluster | undefined,
): FieldError | undefined {
  if (!cluster || object.labels?.[TEMPLATE_LABEL] === 'true') return undefined;
  const mine = routeOf(spec, object.namespace);
  if (!mine) return undefined;
  for (const other of cluster.apiDefinitions()) {
    const namespace = other.metadata.namespace ?? '';
    if (namespace === object.namespace && other.metadata.name === object.name) continue;
    if (other.metadata.labels?.[TEMPLATE_LABEL] === 'true') continue;
    const theirs = routeOf(other.spec, namespace);
    if (!theirs || theirs.context !== mine.context || theirs.domain !== mine.domain || theirs.listenPath !== mine.listenPath) continue;
    const where = `${mine.listenPath}${mine.domain ? ` on ${mine.domain}` : ''}`;
    return duplicate(
      'spec.proxy.listen_path',
      asObject(asObject(spec)?.proxy)?.listen_path,
      `listen path ${where} is already used by ApiDefinition ${namespace}/${other.metadata.name} on the same gateway: the gateway would serve only one of them (ListenPathConflict)`,
    );
  }
  return undefined;
}
