// idFor: base64url of "namespace/name". Expected ids were computed outside the code: `printf '<text>' | base64`,
// then + -> -, / -> _ and the padding dropped (RFC 4648 §5).
import { describe, expect, it } from 'vitest';
import { idFor } from './ids.ts';

describe('idFor', () => {
  it('is base64url of namespace/name', () => {
    expect(idFor('default', 'httpbin')).toBe('ZGVmYXVsdC9odHRwYmlu'); // printf 'default/httpbin' | base64
  });

  it('is URL-safe where base64 would not be, and unpadded', () => {
    expect(idFor('x', '~~~')).toBe('eC9-fn4'); // printf 'x/~~~' | base64 -> eC9+fn4=
    expect(idFor('x', '??>')).toBe('eC8_Pz4'); // printf 'x/??>' | base64 -> eC8/Pz4=
  });

  it('tells namespace and name apart', () => {
    expect(idFor('a', 'b')).toBe('YS9i'); // printf 'a/b' | base64
    expect(idFor('b', 'a')).toBe('Yi9h'); // printf 'b/a' | base64
  });
});
