// Labels of configured form fields (form-parts.ts fieldLabel): machine names read as words, labels stay as written.
import { describe, expect, it } from 'vitest';
import { fieldLabel } from './form-parts.ts';

describe('fieldLabel', () => {
  it('turns a machine name into words', () => {
    expect(fieldLabel('company')).toBe('Company');
    expect(fieldLabel('use_case')).toBe('Use case');
    expect(fieldLabel('team-size')).toBe('Team size');
  });

  it('keeps a name written as a label', () => {
    expect(fieldLabel('Use case')).toBe('Use case');
    expect(fieldLabel('VAT number')).toBe('VAT number');
    expect(fieldLabel('companyName')).toBe('companyName');
  });
});
