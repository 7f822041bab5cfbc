// The extended_paths each version of a Classic API applies (its own, else the API's), as the gateway compiles
// them: body transforms (a request transform on PUT, POST or PATCH; a blob that decodes as base64), header
// transforms, URL rewrites (RE2 patterns, targets on the API's upstream), circuit breakers, JSON Schemas that
// compile, and endpoint entries with a path. Whether a template parses is the gateway's alone to say (the engine
// lives in the gateway).
import { decodeBase64Template, TRANSFORMABLE_METHODS } from '../domain/base64-template.ts';
import { compileBoundedRegexp } from '../domain/bounded-regexp.ts';
import { circuitBreakerProblems } from '../domain/circuit-breakers.ts';
import { headerNameProblem, headerValueProblem } from '../domain/header-rules.ts';
import { rewriteTargetProblem } from '../domain/url-rewrite-checks.ts';
import { compileJsonSchema, newSchemaCompiler, type SchemaCompiler } from '../json-schema/compile.ts';
import { childPath, invalid, keyPath, required, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';
import { DEFAULT_VERSION } from './versions.ts';

/** The extended_paths each version applies: its own, else the API's (unless use_extended_paths is false). */
export function checkExtendedPathsInUse(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const versions = asObject(asObject(spec.version_data)?.versions) ?? {};
  const infos = Object.keys(versions).length > 0 ? Object.entries(versions) : [[DEFAULT_VERSION, {}] as [string, unknown]];
  const errors: RuleProblem[] = [];
  const seen = new Set<string>();
  for (const [name, value] of infos) {
    const info = asObject(value) ?? {};
    if (info.use_extended_paths === false) continue;
    const own = info.extended_paths !== undefined;
    const field = own ? childPath(keyPath(childPath(base, 'version_data', 'versions'), name), 'extended_paths') : childPath(base, 'extended_paths');
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push(...checkExtendedPaths(own ? info.extended_paths : spec.extended_paths, field));
  }
  return errors;
}

/**
 * Body transforms (extended_paths.transform, transform_response) as the gateway compiles them: a request transform
 * on PUT, POST or PATCH, a blob that decodes as base64; header transforms and URL rewrites (below). Whether the template parses is the gateway's to say (the operator cannot load the engine: it
 * lives in the gateway); its refusal names the field and Go's error in the resource's status. Entries need a path.
 */
function checkExtendedPaths(value: unknown, field: string): RuleProblem[] {
  const paths = asObject(value);
  if (!paths) return [];
  const errors: RuleProblem[] = [];
  for (const list of ['transform', 'transform_response']) {
    const transforms = Array.isArray(paths[list]) ? (paths[list] as unknown[]) : [];
    transforms.forEach((entry, index) => {
      const transform = asObject(entry);
      if (!transform || transform.disabled === true) return;
      const at = childPath(field, list, index);
      if (list === 'transform' && typeof transform.method === 'string' && !TRANSFORMABLE_METHODS.has(transform.method.toUpperCase())) {
        errors.push(invalid(childPath(at, 'method'), transform.method, 'must be PUT, POST or PATCH: only a request with a body is transformed'));
      }
      const data = asObject(transform.template_data);
      if (data?.template_mode === 'blob' && typeof data.template_source === 'string' && decodeBase64Template(data.template_source) === undefined) {
        errors.push(
          invalid(childPath(at, 'template_data', 'template_source'), data.template_source, 'must be a base64-encoded template (template_mode: blob)'),
        );
      }
    });
  }
  for (const list of ['transform_headers', 'transform_response_headers']) errors.push(...checkHeaderTransforms(paths[list], childPath(field, list)));
  errors.push(...checkUrlRewrites(paths.url_rewrites, childPath(field, 'url_rewrites')));
  for (const problem of circuitBreakerProblems(paths.circuit_breakers))
    errors.push(required(`${childPath(field, 'circuit_breakers')}${problem.field}`, problem.message));
  const validations = Array.isArray(paths.validate_json) ? (paths.validate_json as unknown[]) : [];
  let compiler: SchemaCompiler | undefined;
  validations.forEach((entry, index) => {
    const rule = asObject(entry);
    const schema = asObject(rule?.schema);
    if (!rule || rule.disabled === true || !schema) return;
    compiler ??= newSchemaCompiler();
    const compiled = compileJsonSchema(compiler, schema);
    if ('problem' in compiled) errors.push(invalid(childPath(field, 'validate_json', index, 'schema'), '(schema)', compiled.problem));
  });
  for (const list of ['white_list', 'black_list', 'ignored']) {
    const entries = Array.isArray(paths[list]) ? (paths[list] as unknown[]) : [];
    entries.forEach((entry, index) => {
      const meta = asObject(entry);
      if (meta && meta.disabled !== true && (meta.path === undefined || meta.path === '')) {
        errors.push(required(childPath(field, list, index, 'path'), 'the endpoint path, relative to the listen path'));
      }
    });
  }
  return errors;
}

/** Header transforms as header-transforms.ts compiles them: names HTTP can carry, values without control characters. */
function checkHeaderTransforms(value: unknown, field: string): RuleProblem[] {
  const errors: RuleProblem[] = [];
  (Array.isArray(value) ? (value as unknown[]) : []).forEach((entry, index) => {
    const rule = asObject(entry);
    if (!rule || rule.disabled === true) return;
    const at = childPath(field, index);
    (Array.isArray(rule.delete_headers) ? (rule.delete_headers as unknown[]) : []).forEach((name, i) => {
      const problem = typeof name === 'string' ? headerNameProblem(name) : undefined;
      if (problem) errors.push(invalid(childPath(at, 'delete_headers', i), name, problem));
    });
    for (const [name, text] of Object.entries(asObject(rule.add_headers) ?? {})) {
      const problem = headerNameProblem(name) ?? (typeof text === 'string' ? headerValueProblem(text) : undefined);
      if (problem) errors.push(invalid(keyPath(childPath(at, 'add_headers'), name), name, problem));
    }
  });
  return errors;
}

/** URL rewrites as url-rewrites.ts compiles them: RE2 regexps (linear time), targets on the API's upstream. */
function checkUrlRewrites(value: unknown, field: string): RuleProblem[] {
  const errors: RuleProblem[] = [];
  const pattern = (source: unknown, at: string): void => {
    if (typeof source !== 'string') return;
    const result = compileBoundedRegexp(source);
    if (!result.ok) errors.push(invalid(at, source, result.problem));
  };
  // rewrite_to, unless Tyk Operator's rewrite_to_internal (a loop by resource) stands for it.
  const target = (owner: Record<string, unknown>, at: string): void => {
    const text = owner.rewrite_to;
    if (owner.rewrite_to_internal !== undefined) return;
    if (text === undefined) errors.push(required(at, 'the rewrite target (or rewrite_to_internal)'));
    const problem = typeof text === 'string' ? rewriteTargetProblem(text) : undefined;
    if (problem) errors.push(invalid(at, String(text), problem));
  };
  (Array.isArray(value) ? (value as unknown[]) : []).forEach((entry, index) => {
    const rule = asObject(entry);
    if (!rule || rule.disabled === true) return;
    const at = childPath(field, index);
    pattern(rule.match_pattern, childPath(at, 'match_pattern'));
    target(rule, childPath(at, 'rewrite_to'));
    (Array.isArray(rule.triggers) ? (rule.triggers as unknown[]) : []).forEach((item, t) => {
      const trigger = asObject(item) ?? {};
      const options = asObject(trigger.options) ?? {};
      const optionsAt = childPath(at, 'triggers', t, 'options');
      for (const [option, matches] of Object.entries(options)) {
        if (option === 'payload_matches') pattern(asObject(matches)?.match_rx, childPath(optionsAt, option, 'match_rx'));
        else
          for (const [name, match] of Object.entries(asObject(matches) ?? {}))
            pattern(asObject(match)?.match_rx, childPath(keyPath(childPath(optionsAt, option), name), 'match_rx'));
      }
      target(trigger, childPath(at, 'triggers', t, 'rewrite_to'));
    });
  });
  return errors;
}
