// response_processors: only the processors the gateway implements, and response_body_transform listed whenever a
// version in use has transform_response entries (Tyk ignores the transforms without it).
import { childPath, invalid, keyPath, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';

const RESPONSE_PROCESSORS = ['response_body_transform', 'header_injector'];

/**
 * response_processors: only the processors the gateway implements, and response_body_transform listed when a
 * version in use has transform_response entries (refused on the transform_response the gateway would not run).
 */
export function checkResponseProcessors(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const errors: RuleProblem[] = [];
  const names = new Set<string>();
  (Array.isArray(spec.response_processors) ? (spec.response_processors as unknown[]) : []).forEach((entry, index) => {
    const name = asObject(entry)?.name;
    if (typeof name !== 'string') return;
    names.add(name);
    if (!RESPONSE_PROCESSORS.includes(name))
      errors.push(
        invalid(
          childPath(base, 'response_processors', index, 'name'),
          name,
          `${name} is not supported by this gateway (supported: ${RESPONSE_PROCESSORS.join(', ')})`,
        ),
      );
  });
  if (names.has('response_body_transform')) return errors;
  // The first extended_paths in use with transform_response entries: a version's own, else the API's.
  const versions = asObject(asObject(spec.version_data)?.versions) ?? {};
  const infos: [string | undefined, Record<string, unknown>][] =
    Object.keys(versions).length > 0 ? Object.entries(versions).map(([name, v]) => [name, asObject(v) ?? {}]) : [[undefined, {}]];
  const transforms = (paths: unknown): unknown[] | undefined => {
    const list = asObject(paths)?.transform_response;
    return Array.isArray(list) && list.some((entry) => asObject(entry)?.disabled !== true) ? list : undefined;
  };
  for (const [name, info] of infos) {
    if (info.use_extended_paths === false) continue;
    const own = name !== undefined && info.extended_paths !== undefined;
    const list = transforms(own ? info.extended_paths : spec.extended_paths);
    if (!list) continue;
    const at = own ? childPath(keyPath(childPath(base, 'version_data', 'versions'), name), 'extended_paths') : childPath(base, 'extended_paths');
    errors.push(
      invalid(
        childPath(at, 'transform_response'),
        list,
        `needs ${childPath(base, 'response_processors')} to list {"name": "response_body_transform"} (Tyk ignores the transforms without it)`,
      ),
    );
    break;
  }
  return errors;
}
