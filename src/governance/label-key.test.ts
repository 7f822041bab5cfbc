// Label keys: the snake_case identifier every label carries beside its display name.
import { describe, expect, it } from 'vitest';
import { labelKeyOf } from './label-key.ts';

describe('labelKeyOf', () => {
  it('snake-cases the default labels', () => {
    expect(labelKeyOf('Business Domain')).toBe('business_domain');
    expect(labelKeyOf('API Criticality')).toBe('api_criticality');
  });

  it('splits camelCase and acronyms, and folds punctuation and runs of separators into one underscore', () => {
    expect(labelKeyOf('businessDomain')).toBe('business_domain');
    expect(labelKeyOf('APICriticality')).toBe('api_criticality');
    expect(labelKeyOf('  Data -- Classification (PII)  ')).toBe('data_classification_pii');
    expect(labelKeyOf('owner.team/name')).toBe('owner_team_name');
    expect(labelKeyOf('Tier2 Support')).toBe('tier2_support');
  });

  it('drops accents so the key stays ASCII', () => {
    expect(labelKeyOf('Région Métier')).toBe('region_metier');
  });

  it('is idempotent: a key is its own key', () => {
    for (const name of ['Business Domain', 'APICriticality', 'Data -- Classification']) expect(labelKeyOf(labelKeyOf(name))).toBe(labelKeyOf(name));
  });

  it('is empty for a name without a letter or digit', () => {
    expect(labelKeyOf('!!!')).toBe('');
    expect(labelKeyOf('   ')).toBe('');
  });
});
