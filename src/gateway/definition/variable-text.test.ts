import { describe, expect, it } from 'vitest';
import { parseVariableText } from './variable-text.ts';

describe('parseVariableText', () => {
  it('splits literal text and variables in both spellings', () => {
    expect(parseVariableText('user $gw_context.path_parts / $tyk_meta.tier-x.y!')).toEqual({
      parts: ['user ', { source: 'context', name: 'path_parts' }, ' / ', { source: 'meta', name: 'tier-x.y' }, '!'],
      usesContext: true,
    });
    expect(parseVariableText('$tyk_context.trigger-0-X-Beta-0')).toEqual({ parts: [{ source: 'context', name: 'trigger-0-X-Beta-0' }], usesContext: true });
  });

  it('keeps text without variables whole, `$1` and unknown prefixes included', () => {
    expect(parseVariableText('/v2/$1?x=$other.y')).toEqual({ parts: ['/v2/$1?x=$other.y'], usesContext: false });
    expect(parseVariableText('')).toEqual({ parts: [''], usesContext: false });
    expect(parseVariableText('$gw_meta.tier')).toEqual({ parts: [{ source: 'meta', name: 'tier' }], usesContext: false });
  });
});
