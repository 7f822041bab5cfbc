// Reading a JSON document given to an import: the text of a file or a request field, or an already decoded value
// (the dashboard may hand over parsed JSON). Shape errors from zod are turned into one line naming the fields.
import type { z } from 'zod';
import { describeIssues } from '../domain/zod-issues.ts';
import { ImportError } from './errors.ts';

export function readJson(document: unknown, format: string): unknown {
  if (typeof document !== 'string') return document;
  const text = document.charCodeAt(0) === 0xfeff ? document.slice(1) : document;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ImportError('document', `not a valid ${format} JSON document: ${(error as Error).message}`);
  }
}

/** Parses with a zod schema or throws ImportError naming the first few fields at fault. */
export function parseShape<T>(schema: z.ZodType<T>, value: unknown, format: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ImportError('document', `not a valid ${format} document: ${describeIssues(result.error, { root: '(document)', limit: 3 })}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
