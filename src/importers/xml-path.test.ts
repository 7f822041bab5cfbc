// XPath evaluation over a parsed document (xml-path.ts): the string value of the first node selected, in document
// order (mixed content in order, attributes, text nodes), positions counted per context node, each predicate form,
// nothing selected, and the work bound that keeps nested documents linear.
import { describe, expect, it } from 'vitest';
import { compileXmlPath } from '../domain/xml-path.ts';
import { MAX_XML_DEPTH, parseXml } from './xml.ts';
import { XmlPathTooCostly, xmlPathString } from './xml-path.ts';

const value = (expression: string, xml: string) => {
  const compiled = compileXmlPath(expression);
  if (!compiled.ok) throw new Error(compiled.problem);
  return xmlPathString(compiled.path, parseXml(xml));
};

const doc = `<?xml version="1.0"?>
<env:Envelope xmlns:env="urn:env"><env:Body>
  <users>
    <user id="u1" role="reader"><name>Ann</name><token>t-1</token></user>
    <user id="u2" role="admin"><name>Bob</name><token>t-2</token></user>
    <user id="u3" disabled="true"><name>Cy<b>r</b>il</name></user>
  </users>
</env:Body></env:Envelope>`;

describe('XPath evaluation', () => {
  it('answers the string value of the first node selected, matching local names whatever the prefix', () => {
    expect(value('/Envelope/Body/users/user/name', doc)).toBe('Ann');
    expect(value('//user/@id', doc)).toBe('u1');
    expect(value('//user[2]/token', doc)).toBe('t-2');
    expect(value("//user[@role='admin']/name", doc)).toBe('Bob');
    expect(value('//user[contains(name, "yr")]/@id', doc)).toBe('u3');
    expect(value('//user[not(token)]/name', doc)).toBe('Cyril');
    expect(value('//user[@disabled]/@id', doc)).toBe('u3');
    expect(value('//name/text()', '<a><name>x<b/>y</name></a>')).toBe('x');
    expect(value('//b/..', '<a><p>1<b>2</b>3</p></a>')).toBe('123');
    expect(value('//token', doc)).toBe('t-1');
    expect(value('//missing', doc)).toBeUndefined();
    expect(value("//user[@role='none']", doc)).toBeUndefined();
  });

  it('counts positions per context node, in document order', () => {
    const xml = '<r><g><i>a</i><i>b</i></g><g><i>c</i><i>d</i></g></r>';
    expect(value('//g/i[2]', xml)).toBe('b');
    expect(value('/r/g[2]/i[1]', xml)).toBe('c');
    expect(value('//i[3]', xml)).toBeUndefined();
  });

  it('stops at its work bound on nested documents instead of taking quadratic time', () => {
    // 20 chains of elements nested 256 deep (the parser's limit): each element's string value spans its chain.
    const chain = `${'<a>x'.repeat(MAX_XML_DEPTH - 1)}${'</a>'.repeat(MAX_XML_DEPTH - 1)}`;
    const nested = `<r>${chain.repeat(20)}</r>`;
    expect(() => value("//a[contains(., 'y')]", nested)).toThrow(XmlPathTooCostly);
    // The same document with expressions whose work is linear is answered.
    expect(value('//a[1]/@missing', nested)).toBeUndefined();
    expect(value('/r/a/a/a', nested)).toBe('x'.repeat(MAX_XML_DEPTH - 3));
  });
});
