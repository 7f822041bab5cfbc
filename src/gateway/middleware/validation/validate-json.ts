// JSON Schema validation of request bodies (Classic validate_json, OAS validateRequest), schemas compiled at load
// (definition/json-validation.ts). For a request matching a rule (method and path) the body is read once, bounded
// by validate_json_max_body_bytes (pipeline/request-body.ts: 413 beyond it), and kept for the upstream. A body that
// is not JSON, or nests deeper than MAX_JSON_DEPTH (100, as the management API's bodies):
// 400 `JSON parsing error: <reason>`. One that does not match: the rule's code (default 422) with Tyk's
//  message — Classic `payload validation failed: <field>: <description>` for every error, the field dotted
// from the root (`(root)` for the root itself); OAS `request validation error: request body has an error: doesn't
// match schema: Error at "<JSON pointer>": <description>` for the first. Never logs the body.
import type { ErrorObject } from 'ajv';
import { jsonDepthProblem } from '../../../http/json-body.ts';
import type { JsonValidationRule } from '../../definition/version-spec.ts';
import type { Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { writeError } from '../../pipeline/error-reply.ts';
import { withRequestBody } from '../../pipeline/request-body.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

export function validateJson(services: PipelineServices): Step {
  const maxBytes = services.config.validate_json_max_body_bytes;
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const rule = endpointRule(ctx.version!.jsonValidations, ctx);
    if (!rule) return false;
    return withRequestBody(ctx, maxBytes, hideGenerator, (body) => {
      const failure = validate(rule, body);
      if (failure === undefined) return false;
      writeError(ctx.req, ctx.res, failure.status, failure.message, { hideGenerator });
      return true;
    });
  };
}

function validate(rule: JsonValidationRule, body: Buffer): { status: number; message: string } | undefined {
  const text = body.toString('utf8');
  // ajv recurses along the body: past the management API's depth limit the body is refused unread.
  const tooDeep = jsonDepthProblem(text);
  if (tooDeep) return { status: 400, message: `JSON parsing error: ${tooDeep}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { status: 400, message: `JSON parsing error: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (rule.validate(value)) return undefined;
  const errors = rule.validate.errors ?? [];
  if (rule.format === 'oas') {
    const first = errors[0];
    const at = first ? oasPointer(first) : '';
    return {
      status: rule.errorCode,
      message: `request validation error: request body has an error: doesn't match schema: Error at "${at}": ${first ? describe(first) : 'invalid'}`,
    };
  }
  const details = errors.map((error) => `${classicField(error)}: ${describe(error)}`);
  return { status: rule.errorCode, message: ['payload validation failed', ...details].join(': ') };
}

/** gojsonschema's field: the instance path dotted from the root, `(root)` for the root itself. */
function classicField(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  return path.length === 0 ? '(root)' : path.join('.');
}

/** kin-openapi points at the missing property itself. */
function oasPointer(error: ErrorObject): string {
  if (error.keyword === 'required') return `${error.instancePath}/${String((error.params as { missingProperty: string }).missingProperty)}`;
  return error.instancePath || '/';
}

/** Tyk's (gojsonschema's) wording for the common keywords; ajv's otherwise. */
function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${String(params.missingProperty)} is required`;
    case 'type':
      return `Invalid type. Expected: ${String(params.type)}, given: ${jsonType(error.data)}`;
    case 'additionalProperties':
      return `Additional property ${String(params.additionalProperty)} is not allowed`;
    case 'enum':
      return `${classicField(error)} must be one of the following: ${((params.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return error.message ?? error.keyword;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export const validateJsonStep: StepDescriptor = {
  name: 'validate-json',
  enabledFor: (api) => anyVersion(api, (v) => v.jsonValidations),
  build: (_api, services) => ({ request: validateJson(services) }),
};
