// Request body transforms of a definition -> BodyTransformRule[]: the template's source (a base64 blob, or a file
// read now, at load: a file edited later takes effect at the next reload, as Tyk's), compiled once by the
// template engine (which reports parse errors) and announced to the template runner (which runs it: ../template/runner.ts). Request
// transforms: only PUT, POST and PATCH carry a body to transform; response transforms: any method's answer. A template that cannot be had (bad base64,
// unreadable file, engine not built) or does not parse refuses the API, naming the field and Go's error.
//
// Compiled templates are kept by (field, source): a reload compiles only what changed (and an API a reload keeps
// compiled marks its templates in use again: compile-inputs.ts). After each load the
// gateway releases the templates no API compiled since the previous load (releaseUnusedTemplates), from this map
// and from both engines: so they hold the templates in use, not every source loaded since start (a gateway whose
// APIs' templates are edited all day grew without bound).
import { decodeBase64Template, TRANSFORMABLE_METHODS } from '../../domain/base64-template.ts';
import { TemplateEngineMissing } from '../template/artefact.ts';
import { TemplateParseError, templateEngine, type CompiledTemplate, type InputFormat } from '../template/engine.ts';
import { templateExecutor } from '../template/executor.ts';
import { DefinitionError } from './api-spec.ts';
import type { BodyTransformRule } from './version-spec.ts';
import { compilePathPattern } from './path-pattern.ts';
import { readDefinitionFile, whenReused } from './compile-inputs.ts';

/** One transform as written, in either format, with the field that names it in errors. */
export interface BodyTransformSource {
  field: string;
  path: string;
  method: string;
  format: InputFormat;
  enableSession: boolean;
  /** The base64 template (Classic blob, OAS body), or undefined when `file` names the template file. */
  blob?: { field: string; base64: string };
  file?: { field: string; path: string };
}

const compiled = new Map<string, CompiledTemplate>();
/** Keys of `compiled` asked for since the last release: what the APIs loaded since then use. */
let used = new Set<string>();

/** `phase`: a request transform needs a method with a body; a response transform applies to any method's answer. */
export function compileBodyTransform(source: BodyTransformSource, phase: 'request' | 'response' = 'request'): BodyTransformRule {
  const method = source.method.toUpperCase();
  if (phase === 'request' && !TRANSFORMABLE_METHODS.has(method)) {
    throw new DefinitionError(`${source.field}.method must be PUT, POST or PATCH (only a request with a body is transformed): ${source.method}`);
  }
  return {
    pattern: compilePathPattern(source.path),
    method,
    format: source.format,
    enableSession: source.enableSession,
    template: compileTemplate(source.field, templateText(source)),
  };
}

function templateText(source: BodyTransformSource): string {
  if (source.blob) return decodeBase64(source.blob.base64, source.blob.field);
  if (source.file) {
    try {
      return readDefinitionFile(source.file.path);
    } catch (error) {
      throw new DefinitionError(`${source.file.field}: the template file cannot be read: ${(error as Error).message}`);
    }
  }
  throw new DefinitionError(`${source.field}: a template is required (a base64 body or a template file path)`);
}

/**
 * Releases every template no definition compiled since the last call (a load compiles every served API's): from the
 * load-time engine and the runner. An in-flight request of the previous load still holding one has it compiled
 * again by the runner (it announces what it executes). Returns how many templates are kept.
 */
export function releaseUnusedTemplates(): number {
  for (const [key, template] of compiled) {
    if (used.has(key)) continue;
    compiled.delete(key);
    templateExecutor().release(template);
    templateEngine().release(template);
  }
  used = new Set();
  return compiled.size;
}

function decodeBase64(text: string, field: string): string {
  const decoded = decodeBase64Template(text);
  if (decoded === undefined) throw new DefinitionError(`${field} must be a base64-encoded template`);
  return decoded;
}

function compileTemplate(field: string, text: string): CompiledTemplate {
  const key = `${field}\u0000${text}`;
  used.add(key);
  // A reload that keeps the compiled API keeps its template too (../compiled-apis.ts).
  whenReused(() => used.add(key));
  const known = compiled.get(key);
  if (known) return known;
  try {
    const template = templateEngine().compile(field, text);
    templateExecutor().prepare(template);
    compiled.set(key, template);
    return template;
  } catch (error) {
    if (error instanceof TemplateParseError) throw new DefinitionError(`${field}: the template does not parse: ${error.message}`);
    if (error instanceof TemplateEngineMissing) throw new DefinitionError(`${field}: ${error.message}`);
    throw error;
  }
}
