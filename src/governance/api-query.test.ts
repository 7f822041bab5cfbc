// Parsing the filter, search and paging of GET /api/apis.
import { describe, expect, it } from 'vitest';
import { parseApiQuery, parseLabelFilter } from './api-query.ts';
import { HttpError } from '../http/errors.ts';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('label filters', () => {
  it('splits name and value at the first colon, trimming both', () => {
    expect(parseLabelFilter('API Criticality:Tier 1')).toEqual({ label: 'API Criticality', value: 'Tier 1' });
    expect(parseLabelFilter(' business_domain : payments ')).toEqual({ label: 'business_domain', value: 'payments' });
    expect(parseLabelFilter('docs:https://example.com/x')).toEqual({ label: 'docs', value: 'https://example.com/x' });
  });

  it('without a colon matches the label with any value', () => {
    expect(parseLabelFilter('Business Domain')).toEqual({ label: 'Business Domain' });
  });

  it('refuses an empty label or an empty value, naming the parameter', () => {
    expect(refusal(() => parseLabelFilter(':Tier 1'))).toMatch(/^400 label: ":Tier 1" must be/);
    expect(refusal(() => parseLabelFilter('API Criticality:'))).toMatch(/^400 label: "API Criticality:" has no value/);
  });
});

describe('the query of GET /api/apis', () => {
  it('defaults to the first page of 50, no filter', () => {
    expect(parseApiQuery({})).toEqual({ filters: [], page: 1, perPage: 50 });
  });

  it('collects repeated label filters (AND), the search text and paging', () => {
    expect(parseApiQuery({ label: ['API Criticality:Tier 1', 'business_domain:payments'], search: ' pay ', page: '3', per_page: '10' })).toEqual({
      filters: [
        { label: 'API Criticality', value: 'Tier 1' },
        { label: 'business_domain', value: 'payments' },
      ],
      search: 'pay',
      page: 3,
      perPage: 10,
    });
    expect(parseApiQuery({ label: 'API Criticality:Tier 2' }).filters).toEqual([{ label: 'API Criticality', value: 'Tier 2' }]);
  });

  it('ignores an empty search', () => {
    expect(parseApiQuery({ search: '  ' })).toEqual({ filters: [], page: 1, perPage: 50 });
  });

  it('refuses bad paging and repeated single-valued parameters, naming them', () => {
    expect(refusal(() => parseApiQuery({ page: '0' }))).toBe('400 page: must be a whole number from 1 to 9007199254740991');
    expect(refusal(() => parseApiQuery({ per_page: '501' }))).toBe('400 per_page: must be a whole number from 1 to 500');
    expect(refusal(() => parseApiQuery({ page: '1.5' }))).toMatch(/^400 page:/);
    expect(refusal(() => parseApiQuery({ search: ['a', 'b'] }))).toBe('400 search: given 2 times, expected once');
  });
});
