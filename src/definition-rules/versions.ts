// A Classic API's versions: dates that parse, override targets, legacy path lists without empty entries, global
// header edits that HTTP can carry, and a default version that exists (named when a not_versioned API has several).
import { globalHeaderValueProblem, headerNameProblem } from '../domain/header-rules.ts';
import { childPath, invalid, keyPath, required, type RuleProblem } from './problems.ts';
import { checkUpstreamTarget } from './proxy.ts';
import { asObject } from './untyped.ts';

/** The version the gateway serves when an API declares none. */
export const DEFAULT_VERSION = 'Default';

/** Versions: the default must exist; a not_versioned API with several versions must name its default. */
export function checkVersionData(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const field = childPath(base, 'version_data');
  const data = asObject(spec.version_data) ?? {};
  const errors: RuleProblem[] = [];
  const versions = asObject(data.versions) ?? {};
  const declared = Object.keys(versions);
  for (const name of declared) {
    const info = asObject(versions[name]);
    const at = keyPath(childPath(field, 'versions'), name);
    if (typeof info?.expires === 'string' && info.expires !== '' && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(info.expires)) {
      errors.push(invalid(childPath(at, 'expires'), info.expires, 'must look like 2006-01-02 15:04 (UTC), or be empty for no expiry'));
    }
    errors.push(...checkUpstreamTarget(info?.override_target, childPath(at, 'override_target'), false));
    const legacy = asObject(info?.paths) ?? {};
    for (const list of ['white_list', 'black_list', 'ignored']) {
      const paths = Array.isArray(legacy[list]) ? (legacy[list] as unknown[]) : [];
      paths.forEach((path, index) => {
        if (path === '') errors.push(required(childPath(at, 'paths', list, index), 'the endpoint path, relative to the listen path'));
      });
    }
    errors.push(...checkHeaderEdits(info?.global_headers, info?.global_headers_remove, at, 'global_headers'));
    errors.push(...checkHeaderEdits(info?.global_response_headers, info?.global_response_headers_remove, at, 'global_response_headers'));
  }
  // Without versions the gateway serves one, named Default.
  const names = declared.length > 0 ? declared : [DEFAULT_VERSION];
  const defaultVersion = typeof data.default_version === 'string' && data.default_version !== '' ? data.default_version : undefined;
  if (defaultVersion !== undefined && !names.includes(defaultVersion)) {
    errors.push(
      invalid(
        childPath(field, 'default_version'),
        defaultVersion,
        `must name a version of ${childPath(field, 'versions')}: ${names.map((n) => JSON.stringify(n)).join(', ')}`,
      ),
    );
  }
  const notVersioned = typeof data.not_versioned === 'boolean' ? data.not_versioned : names.length <= 1;
  if (notVersioned && defaultVersion === undefined && names.length > 1) {
    errors.push(required(childPath(field, 'default_version'), 'a not_versioned API with several versions must name the one it serves'));
  }
  return errors;
}

/** A version's global header edits (`<name>` and `<name>_remove`), as the gateway compiles them (api/header-rules.ts). */
function checkHeaderEdits(set: unknown, remove: unknown, at: string, name: string): RuleProblem[] {
  const errors: RuleProblem[] = [];
  if (Array.isArray(remove)) {
    remove.forEach((header, index) => {
      const problem = typeof header === 'string' ? headerNameProblem(header) : undefined;
      if (problem) errors.push(invalid(childPath(at, `${name}_remove`, index), header, problem));
    });
  }
  for (const [header, value] of Object.entries(asObject(set) ?? {})) {
    const field = keyPath(childPath(at, name), header);
    const problem = headerNameProblem(header) ?? (typeof value === 'string' ? globalHeaderValueProblem(value) : undefined);
    if (problem) errors.push(invalid(field, typeof value === 'string' ? value : header, problem));
  }
  return errors;
}
