// The one wording of zod refusals: `field: message` per issue, fields as a.b[2], unknown fields named singly.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, issueLines } from './zod-issues.ts';

const Schema = z.strictObject({ name: z.string({ error: 'must be a string' }), tags: z.array(z.string({ error: 'must be a string' })).optional() });

function issuesOf(value: unknown): z.ZodError {
  const parsed = Schema.safeParse(value);
  if (parsed.success) throw new Error('expected issues');
  return parsed.error;
}

describe('describeIssues', () => {
  it('names nested fields with list indexes and every unknown field', () => {
    expect(describeIssues(issuesOf({ name: 1, tags: ['a', 2], colour: 'x', size: 1 }))).toBe(
      'name: must be a string; tags[1]: must be a string; colour: unknown field; size: unknown field',
    );
  });

  it('writes fields under a prefix, calls the whole value by the name given, and caps the count', () => {
    expect(describeIssues(issuesOf({ name: 1 }), { prefix: 'spec' })).toBe('spec.name: must be a string');
    expect(describeIssues(z.string({ error: 'must be a string' }).safeParse(1).error!, { root: '(body)' })).toBe('(body): must be a string');
    expect(describeIssues(issuesOf({ name: 1, tags: [1, 2] }), { limit: 1 })).toBe('name: must be a string; and 2 more');
    expect(issueLines(issuesOf({ name: 1, tags: [1] }))).toEqual(['name: must be a string', 'tags[0]: must be a string']);
  });
});
