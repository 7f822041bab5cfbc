// response_processors: only the processors the gateway implements, and response_body_transform listed whenever a
// version in use has transform_response entries (Tyk ignores the transforms without it).
import { childPath, invalid, required, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';

const RESPONSE_PROCESSORS = ['response_body_transform', 'header_injector'];

/**
 * response_processors as from-classic.ts checks them: only the processors the gateway implements, and
 * response_body_transform listed when a version in use has transform_response entries.
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
        invalid(childPath(base, 'response_processors', index, 'name'), name, `is not supported by this gateway (supported: ${RESPONSE_PROCESSORS.join(', ')})`),
      );
  });
  if (names.has('response_body_transform')) return errors;
  const versions = asObject(asObject(spec.version_data)?.versions) ?? {};
  const infos = Object.keys(versions).length > 0 ? Object.values(versions).map((v) => asObject(v) ?? {}) : [{}];
  const transforms = (paths: unknown): boolean => {
    const list = asObject(paths)?.transform_response;
    return Array.isArray(list) && list.some((entry) => asObject(entry)?.disabled !== true);
  };
  if (infos.some((info) => info.use_extended_paths !== false && transforms(info.extended_paths !== undefined ? info.extended_paths : spec.extended_paths))) {
    errors.push(
      required(
        childPath(base, 'response_processors'),
        'must list {"name": "response_body_transform"} when extended_paths.transform_response is used (Tyk ignores the transforms without it)',
      ),
    );
  }
  return errors;
}
