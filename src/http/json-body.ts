// The one way a service reads a JSON request body: bounded in size (by the server's body limit, before this runs)
// AND in nesting depth (here, by an iterative scan of the text BEFORE JSON.parse), and refusing strings PostgreSQL
// and the journals cannot keep (NUL, lone UTF-16 surrogates). Every refusal is an HttpError 400 whose message starts
// `Request malformed:` and names the problem (the limit, or the field holding the bad string).
//
// Why the depth scan comes first: JSON.parse, zod, canonical hashing and JSON.stringify in the journal all recurse,
// so a 30 KB body nested 5 000 deep overflows the stack somewhere after validation (issue 10, item 1). Nothing in
// this file recurses: the scan counts brackets outside strings, the string check walks with an explicit stack.
import { HttpError } from './errors.ts';

/** Deepest nesting of arrays/objects a body may have. The deepest real document (an OAS schema) stays far below. */
export const MAX_JSON_DEPTH = 100;

export interface JsonBodyOptions {
  /** Deepest nesting of arrays and objects accepted. Default MAX_JSON_DEPTH (100). */
  maxDepth?: number;
}

/** The request body (string or Buffer) parsed as JSON; 400 when empty, not JSON, too deep or holding bad strings. */
export function parseJsonBody(body: unknown, options: JsonBodyOptions = {}): unknown {
  return parseJsonText(nonEmptyText(body, 'JSON'), options);
}

/** The body as a JSON object (not an array, string or null); `what` names it in the refusal. */
export function parseJsonObjectBody(body: unknown, what: string, options: JsonBodyOptions = {}): Record<string, unknown> {
  const value = parseJsonText(nonEmptyText(body, 'a JSON object'), options);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError('malformed', `Request malformed: ${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function nonEmptyText(body: unknown, expected: string): string {
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : '';
  if (text.trim() === '') throw new HttpError('malformed', `Request malformed: the body is empty, expected ${expected}`);
  return text;
}

/** JSON text to a value, with the depth and string checks above (for JSON that arrives other than as a body). */
export function parseJsonText(text: string, options: JsonBodyOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  checkDepth(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError('malformed', `Request malformed: ${(error as Error).message}`);
  }
  const bad = mayHoldUnstorableString(text) ? findUnstorableString(value) : undefined;
  if (bad) throw new HttpError('malformed', `Request malformed: ${bad.field || '(root)'}: ${bad.problem}`);
  return value;
}

/**
 * False when the text cannot yield a NUL or a lone surrogate: JSON refuses raw control characters, so NUL arrives
 * only as the escape \u0000, and a lone surrogate only as a \uD800-\uDFFF escape or in text that is not well
 * formed already. Saves walking the parsed value for almost every body.
 */
function mayHoldUnstorableString(text: string): boolean {
  return /\\u(?:0000|d[89a-f])/i.test(text) || !text.isWellFormed();
}

function checkDepth(text: string, maxDepth: number): void {
  const problem = jsonDepthProblem(text, maxDepth);
  if (problem) throw new HttpError('malformed', `Request malformed: ${problem}`);
}

/**
 * Counts `[`/`{` against `]`/`}` outside strings; the reason at the first one past maxDepth, else undefined. Never
 * recurses. The gateway bounds the JSON bodies it parses for validation and GraphQL with it too (the same limit).
 */
export function jsonDepthProblem(text: string, maxDepth: number = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return `JSON nested deeper than ${maxDepth} levels (at character ${i})`;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

export interface UnstorableString {
  /** Where it is: `a.b[2]`, or the key's parent path for a bad key. */
  field: string;
  problem: string;
}

/** The first string (key or value) that holds NUL or a lone surrogate, walking with an explicit stack. */
function findUnstorableString(root: unknown): UnstorableString | undefined {
  const stack: { value: unknown; field: string }[] = [{ value: root, field: '' }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, field } = item;
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) return { field, problem };
    } else if (Array.isArray(value)) {
      value.forEach((element, index) => stack.push({ value: element, field: `${field}[${index}]` }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const problem = stringProblem(key);
        if (problem) return { field, problem: `a key ${problem}` };
        stack.push({ value: child, field: field ? `${field}.${key}` : key });
      }
    }
  }
  return undefined;
}

/** Why a string cannot be stored (PostgreSQL text refuses NUL; a lone surrogate is not Unicode), or undefined. */
export function stringProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which is not allowed';
  if (!text.isWellFormed()) return 'contains a lone UTF-16 surrogate (not valid Unicode)';
  return undefined;
}
