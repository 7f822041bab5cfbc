// The request bodies of the governance API: what a label definition, applied labels and a token request accept,
// and how a refusal names each offending field.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeIssues } from '../domain/zod-issues.ts';
import { ApiLabelsBody, LabelBody, TokenBody } from './bodies.ts';

function refusal(schema: z.ZodType, body: unknown): string {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error('expected a refusal');
  return describeIssues(parsed.error, { root: '(body)' });
}

describe('a label definition', () => {
  it("is gw's documented {name, values}: values absent, null or empty make a free-text label; names and values are trimmed", () => {
    expect(LabelBody.parse({ name: ' Business Domain ' })).toEqual({ name: 'Business Domain', values: [] });
    expect(LabelBody.parse({ name: 'Owner', values: null })).toEqual({ name: 'Owner', values: [] });
    expect(LabelBody.parse({ name: 'API Criticality', values: ['Tier 1', ' Tier 2 '] })).toEqual({ name: 'API Criticality', values: ['Tier 1', 'Tier 2'] });
  });

  it('names every offending field once', () => {
    expect(refusal(LabelBody, {})).toBe('name: is required: a string');
    expect(refusal(LabelBody, { name: '  ' })).toBe('name: must not be empty');
    expect(refusal(LabelBody, { name: '***' })).toBe('name: must contain a letter or a digit');
    expect(refusal(LabelBody, { name: 'x'.repeat(101) })).toBe('name: must be at most 100 characters');
    expect(refusal(LabelBody, { name: 'Tier', values: 'Tier 1' })).toBe('values: must be a list of strings');
    expect(refusal(LabelBody, { name: 'Tier', values: ['Tier 1', 2, '', 'tier 1'] })).toBe('values[1]: must be a string; values[2]: must not be empty');
    expect(refusal(LabelBody, { name: 'Tier', values: ['Tier 1', 'tier 1'] })).toBe('values[1]: "tier 1" is listed twice');
  });

  it('refuses unknown fields by name, so a typo cannot silently make a label free text', () => {
    expect(refusal(LabelBody, { name: 'Tier', value: ['Tier 1'] })).toBe('value: unknown field');
  });
});

describe('labels applied to an API', () => {
  it('maps label names or keys to values; null (for PATCH) removes one', () => {
    expect(ApiLabelsBody.parse({ labels: { 'API Criticality': 'Tier 1', business_domain: null } })).toEqual({
      labels: { 'API Criticality': 'Tier 1', business_domain: null },
    });
  });

  it('names the label whose value is wrong', () => {
    expect(refusal(ApiLabelsBody, {})).toBe('labels: is required: an object of label name -> value');
    expect(refusal(ApiLabelsBody, { labels: { 'API Criticality': 1, owner: '' } })).toBe(
      'labels.API Criticality: must be a string; labels.owner: must not be empty',
    );
  });
});

describe('a token request', () => {
  it('needs a name and a role, admin or member', () => {
    expect(TokenBody.parse({ name: 'ci', role: 'member' })).toEqual({ name: 'ci', role: 'member' });
    expect(refusal(TokenBody, { name: 'ci' })).toBe('role: is required: admin or member');
    expect(refusal(TokenBody, { name: 'ci', role: 'root' })).toBe('role: must be admin or member');
  });
});
