// Every rule an OAS API document (OpenAPI 3.0.x + x-gw-api-gateway, already parsed by its schema) must pass before
// the gateway serves it that needs nothing of the gateway's runtime: the gateway's OAS load runs it first (its
// words are the load problem), and the dashboard's OAS writes run it so a 200 means an API the gateway serves:
// plugins, operations (operationId, validateRequest's schema), load balancing, certificate ids, versioning.
// Checks that compile patterns, schemas or scripts stay in the gateway's compile (gateway/definition/).
import { certificateIdProblem } from '../domain/certificate-ids.ts';
import { GW_EXTENSION, operationsById, type GwExtension, type OasDocument } from '../domain/oas.ts';
import { checkOasPlugins } from './plugins.ts';
import { childPath, invalid, type RuleProblem } from './problems.ts';

const X = GW_EXTENSION;

/** The problems of an OAS document, in the order the gateway's load meets them. */
export function oasDefinitionProblems(doc: OasDocument): RuleProblem[] {
  const ext = doc[X];
  return [...checkOasPlugins(ext), ...checkOperations(doc, ext), ...checkLoadBalancing(ext), ...checkCertificates(ext), ...checkVersioning(ext.info)];
}

/**
 * The operations the gateway section configures: each operation's fields from Tyk's `middleware.operations` and
 * gw's `operations` together, so a block written at one place and a mock at the other both apply (before, gw's
 * object replaced Tyk's whole, silently dropping its block). A field given at both places is refused
 * (checkOperations) unless both say the same.
 */
export function configuredOperations(ext: GwExtension): NonNullable<GwExtension['operations']> {
  const merged: NonNullable<GwExtension['operations']> = {};
  for (const place of [ext.middleware?.operations, ext.operations]) {
    for (const [operationId, operation] of Object.entries(place ?? {})) merged[operationId] = { ...merged[operationId], ...operation };
  }
  return merged;
}

/** Fields of one operation given at both places with different values. */
function checkBothPlaces(ext: GwExtension): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const [operationId, tyks] of Object.entries(ext.middleware?.operations ?? {})) {
    const gws = ext.operations?.[operationId];
    for (const [name, value] of Object.entries(gws ?? {})) {
      if (!(name in tyks) || JSON.stringify(tyks[name]) === JSON.stringify(value)) continue;
      const field = childPath(X, 'operations', operationId, name);
      problems.push(
        invalid(field, undefined, `is also configured, differently, at ${childPath(X, 'middleware', 'operations', operationId, name)}: write it at one place`),
      );
    }
  }
  return problems;
}

/** Each configured operation names an operationId in `paths`; validateRequest needs a JSON request body schema. */
function checkOperations(doc: OasDocument, ext: GwExtension): RuleProblem[] {
  const known = operationsById(doc);
  const problems: RuleProblem[] = checkBothPlaces(ext);
  for (const [operationId, operation] of Object.entries(configuredOperations(ext))) {
    const field = childPath(X, 'operations', operationId);
    const target = known.get(operationId);
    if (!target) {
      problems.push(invalid(field, undefined, `no operation in paths has operationId ${operationId}`));
      continue;
    }
    if (operation.validateRequest?.enabled && !requestBodySchema(doc, target.path, target.method)) {
      problems.push(
        invalid(childPath(field, 'validateRequest'), undefined, `operation ${operationId} has no application/json requestBody schema to validate against`),
      );
    }
  }
  return problems;
}

/** The application/json schema of an operation's requestBody (a `#/components/requestBodies/` reference followed). */
export function requestBodySchema(doc: OasDocument, path: string, method: string): Record<string, unknown> | undefined {
  const operation = doc.paths[path]?.[method.toLowerCase()] as { requestBody?: unknown } | undefined;
  let body = operation?.requestBody as Record<string, unknown> | undefined;
  const ref = body?.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/requestBodies/')) {
    const requestBodies = (doc.components as { requestBodies?: Record<string, unknown> } | undefined)?.requestBodies;
    body = requestBodies?.[ref.slice('#/components/requestBodies/'.length)] as Record<string, unknown> | undefined;
  }
  const content = body?.content as Record<string, { schema?: unknown }> | undefined;
  const schema = content?.['application/json']?.schema;
  return schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : undefined;
}

/** upstream.loadBalancing enabled: at least one target with a weight above 0 (Tyk repeats each target `weight` times). */
function checkLoadBalancing(ext: GwExtension): RuleProblem[] {
  const balancing = ext.upstream.loadBalancing;
  if (!balancing?.enabled || (balancing.targets ?? []).some(({ weight }) => weight > 0)) return [];
  const field = childPath(X, 'upstream', 'loadBalancing', 'targets');
  return [invalid(field, balancing.targets ?? [], 'must name at least one upstream with a weight above 0 when load balancing is enabled')];
}

/** server.customDomain.certificates (when the domain is enabled) and server.clientCertificates.allowlist: usable ids. */
function checkCertificates(ext: GwExtension): RuleProblem[] {
  const served = ext.server.customDomain?.enabled ? (ext.server.customDomain.certificates ?? []) : [];
  const problems: RuleProblem[] = [];
  for (const [segments, ids] of [
    [['customDomain', 'certificates'], served],
    [['clientCertificates', 'allowlist'], ext.server.clientCertificates?.allowlist ?? []],
  ] as const) {
    const problem = certificateIdProblem(ids);
    if (problem) problems.push(invalid(childPath(X, 'server', ...segments, problem[0]), ids[problem[0]], problem[1]));
  }
  return problems;
}

/** The name Tyk Gateway gives "this API itself" as a version. */
export const SELF_VERSION = 'self';

/** info.versioning enabled: a key unless the version is in the URL, each version name once, a default that exists. */
function checkVersioning(info: GwExtension['info']): RuleProblem[] {
  const versioning = info.versioning;
  if (!versioning?.enabled) return [];
  const field = childPath(X, 'info', 'versioning');
  const location = versioning.location ?? 'header';
  const problems: RuleProblem[] = [];
  if (location !== 'url' && !versioning.key) problems.push(invalid(childPath(field, 'key'), versioning.key, `is required when location is ${location}`));
  const names = new Set<string>();
  (versioning.versions ?? []).forEach(({ name }, index) => {
    if (names.has(name)) problems.push(invalid(childPath(field, 'versions', index, 'name'), name, `${name} is listed twice`));
    names.add(name);
  });
  const name = versioning.name ?? '';
  const defaultVersion = versioning.default ?? '';
  if (defaultVersion && defaultVersion !== name && defaultVersion !== SELF_VERSION && !names.has(defaultVersion)) {
    problems.push(
      invalid(
        childPath(field, 'default'),
        defaultVersion,
        `names a version that is neither this API (${name || SELF_VERSION}) nor in versions: ${defaultVersion}`,
      ),
    );
  }
  return problems;
}
