// The XPath subset a definition may give (xml-path.ts): what compiles, into which steps, and what is refused with
// its reason (what Tyk's library also refuses, and what would not run in time linear in the document).
import { describe, expect, it } from 'vitest';
import { compileXmlPath } from './xml-path.ts';

const steps = (source: string) => {
  const result = compileXmlPath(source);
  if (!result.ok) throw new Error(result.problem);
  return result.path.steps;
};
const problem = (source: string) => {
  const result = compileXmlPath(source);
  return result.ok ? 'compiled' : result.problem;
};

describe('XPath subset', () => {
  it('compiles absolute, relative and descendant paths, attributes, text() and each predicate form', () => {
    expect(steps('/a/b')).toEqual([
      { axis: 'child', test: { kind: 'element', name: 'a' } },
      { axis: 'child', test: { kind: 'element', name: 'b' } },
    ]);
    expect(steps('a/b')).toEqual(steps('/a/b'));
    expect(steps('//user/@id')).toEqual([
      { axis: 'descendant-or-self', test: { kind: 'node' } },
      { axis: 'child', test: { kind: 'element', name: 'user' } },
      { axis: 'attribute', test: { kind: 'attribute', name: 'id' } },
    ]);
    expect(steps('/a//b/text()').map((step) => step.axis)).toEqual(['child', 'descendant-or-self', 'child', 'child']);
    expect(steps('//item[2]')[1]!.predicate).toEqual({ kind: 'position', position: 2 });
    expect(steps("//user[@role = 'admin']/name")[1]!.predicate).toEqual({
      kind: 'equals',
      path: [{ axis: 'attribute', test: { kind: 'attribute', name: 'role' } }],
      value: 'admin',
    });
    expect(steps('//user[contains(name, "ann")]')[1]!.predicate?.kind).toBe('contains');
    expect(steps('//user[not(@disabled)]')[1]!.predicate?.kind).toBe('not');
    expect(steps('//user[token]')[1]!.predicate?.kind).toBe('exists');
    expect(steps('//*/..')[2]!.axis).toBe('parent');
  });

  it('refuses what it does not evaluate, with the reason', () => {
    expect(problem('')).toBe('is empty');
    expect(problem('a'.repeat(1025))).toContain('longer than 1024');
    expect(problem('//soap:Body')).toContain('prefixed names');
    expect(problem('child::a')).toContain('explicit axes');
    expect(problem('//a[b and c]')).toContain("'and' and 'or'");
    expect(problem('//a[.//b]')).toContain("'//' inside a predicate");
    expect(problem('//a[0]')).toContain('positions start at 1');
    expect(problem('//a[1][2]')).toContain('one predicate');
    expect(problem('//a[count(b)]')).toContain('not supported');
    expect(problem("//a[b='x]")).toContain('closing');
    expect(problem('/a/')).toContain('a step is missing');
    expect(problem('/a b')).toContain('unexpected "b"');
  });
});
