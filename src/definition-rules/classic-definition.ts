// Every rule a Classic API definition must pass before the gateway serves it, in one list: the admission webhook
// runs it on an ApiDefinition's spec (base `spec`) so `kubectl apply` fails at once, and the gateway's loader runs
// it on every Classic definition it loads (base '') before compiling it, so both refuse the same definitions with
// the same words. A rule the gateway learns or drops is changed here, once. Fields Tyk has and the gateway does not
// implement are api/unsupported-fields.ts's list (the dashboard refuses by it too).
import { unsupportedDefinitionFields } from '../domain/unsupported-fields.ts';
import { checkAuth } from './auth.ts';
import { checkCertificateIds, checkUpstreamTlsMaps } from './certificates.ts';
import { checkCors } from './cors.ts';
import { checkExtendedPathsInUse } from './extended-paths.ts';
import { checkGraphql } from './graphql.ts';
import { checkPlugins } from './plugins.ts';
import { childPath, forbidden, keyPath, required, type RuleProblem } from './problems.ts';
import { checkApiId, checkDomain, checkListenPath, checkLoadBalancedTargets, checkUpstreamTarget } from './proxy.ts';
import { checkResponseProcessors } from './response-processors.ts';
import { checkStreamApi, isStreamApi } from './tcp.ts';
import { asObject } from './untyped.ts';
import { checkVersionData } from './versions.ts';

/** The problems of a Classic definition (raw JSON: fields of the wrong type are the schema's to report), in order. */
export function classicDefinitionProblems(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const stream = isStreamApi(spec); // tcp/tls: its own rules refuse every auth field
  const problems: RuleProblem[] = [
    ...(stream ? [] : checkAuth(spec, base)),
    ...checkCertificateIds(spec, base),
    ...checkDomain(spec.domain, childPath(base, 'domain')),
  ];
  const proxy = asObject(spec.proxy);
  if (stream) problems.push(...checkStreamApi(spec, base));
  else if (spec.proxy === undefined) problems.push(required(childPath(base, 'proxy'), 'an ApiDefinition needs proxy.listen_path and proxy.target_url'));
  else if (proxy) {
    problems.push(...checkListenPath(proxy.listen_path, childPath(base, 'proxy', 'listen_path')));
    const balanced = proxy.enable_load_balancing === true;
    // Tyk Operator's proxy.target_internal (a loop to another resource) stands for target_url.
    // A UDG API (graphql.execution_mode executionEngine) is answered from its data sources: target_url may be empty.
    const byEngine = asObject(spec.graphql)?.enabled === true && asObject(spec.graphql)?.execution_mode === 'executionEngine';
    if (proxy.target_internal === undefined)
      problems.push(...checkUpstreamTarget(proxy.target_url, childPath(base, 'proxy', 'target_url'), !balanced && !byEngine, true));
    if (balanced) problems.push(...checkLoadBalancedTargets(proxy.target_list, childPath(base, 'proxy', 'target_list')));
  }
  problems.push(
    ...checkApiId(spec.api_id, childPath(base, 'api_id')),
    ...checkVersionData(spec, base),
    ...checkExtendedPathsInUse(spec, base),
    ...checkCors(spec, base),
    ...unsupportedDefinitionFields(spec).map((use) => forbidden(childPath(base, versionKeyPath(use.field)), use.message)),
    ...checkResponseProcessors(spec, base),
    ...checkUpstreamTlsMaps(spec, base),
    ...checkGraphql(spec, base),
    ...checkPlugins(spec, base),
  );
  return problems;
}

/** `version_data.versions.v1.extended_paths.x` (api/unsupported-fields.ts names fields from the root) as a path. */
function versionKeyPath(field: string): string {
  const prefix = 'version_data.versions.';
  const at = field.lastIndexOf('.extended_paths.');
  return field.startsWith(prefix) && at > prefix.length ? `${keyPath('version_data.versions', field.slice(prefix.length, at))}${field.slice(at)}` : field;
}
