// The XML reader (saxes underneath): namespaces, QName resolution, entities, CDATA and comments; malformed and
// unsafe input refused; mixed content kept in order.
import { describe, expect, it } from 'vitest';
import { childrenNamed, MAX_XML_DEPTH, parseXml, XmlError } from './xml.ts';

describe('parseXml', () => {
  it('resolves element namespaces (default and prefixed, scoped) and QName attribute values', () => {
    const root = parseXml(`<?xml version="1.0"?>
<!-- a comment -->
<a:root xmlns:a="urn:a" xmlns="urn:default" xmlns:t="urn:t">
  <child name="x" ref="t:Thing"/>
  <a:child xmlns:t="urn:other" ref="t:Thing">text &amp; more &#x41;&#66;<![CDATA[<raw>]]></a:child>
</a:root>`);
    expect([root.ns, root.local, root.qname]).toEqual(['urn:a', 'root', 'a:root']);
    const [first, second] = root.children;
    expect([first!.ns, first!.local, first!.attributes.get('name')]).toEqual(['urn:default', 'child', 'x']);
    expect(first!.resolve(first!.attributes.get('ref')!)).toEqual({ ns: 'urn:t', local: 'Thing' });
    expect(second!.resolve('t:Thing')).toEqual({ ns: 'urn:other', local: 'Thing' });
    expect(second!.resolve('Unprefixed')).toEqual({ ns: 'urn:default', local: 'Unprefixed' });
    expect(second!.resolve('nope:X')).toBeUndefined();
    expect(second!.text).toBe('text & more AB<raw>');
    expect(second!.line).toBe(5);
    expect(childrenNamed(root, 'urn:a', 'child')).toEqual([second]);
  });

  it('decodes attribute entities and normalises whitespace in them', () => {
    const root = parseXml(`<r v='a&lt;b&quot;\tc' w="&apos;"/>`);
    expect(root.attributes.get('v')).toBe('a<b" c');
    expect(root.attributes.get('w')).toBe("'");
  });

  it('refuses malformed documents with the line', () => {
    const cases: [string, RegExp][] = [
      ['<a><b></a>', /unexpected close tag/],
      ['<a>', /unclosed tag: a \(line 1\)/],
      ['<a/><b/>', /only one root/],
      ['<p:a/>', /unbound namespace prefix: "p"/],
      ['<a x="1" x="2"/>', /duplicate attribute: x/],
      ['<a>&nbsp;</a>', /undefined entity/],
      ['<a>1 & 2</a>', /./],
      ['\n\n<a', /root element\. \(line 3\)/],
      ['text', /text data outside of root node/],
      ['', /must contain a root element/],
    ];
    for (const [source, message] of cases) expect(() => parseXml(source), source).toThrow(message);
    const error = (() => {
      try {
        parseXml('<a>\n<b>\n</c></a>');
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(XmlError);
    expect((error as XmlError).line).toBe(3);
  });

  it('refuses DTDs with entity declarations instead of expanding them', () => {
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY x "xxxxxxxx">]><a>&x;</a>')).toThrow(/internal subset/);
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>')).toThrow(/internal subset/);
    expect(parseXml('<!DOCTYPE a SYSTEM "a.dtd"><a/>').local).toBe('a');
  });

  it('keeps mixed content in document order beside the element lists', () => {
    const root = parseXml('<p>one <b>two</b> three<i/></p>');
    expect(root.text).toBe('one  three');
    expect(root.content.map((part) => (typeof part === 'string' ? part : `<${part.local}>`))).toEqual(['one ', '<b>', ' three', '<i>']);
  });

  it('refuses elements nested deeper than its limit (each level costs every element below it)', () => {
    const nested = (depth: number) => `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    expect(parseXml(nested(MAX_XML_DEPTH)).local).toBe('a');
    expect(() => parseXml(nested(MAX_XML_DEPTH + 1))).toThrow(XmlError);
    expect(() => parseXml(nested(MAX_XML_DEPTH + 1))).toThrow(`elements nest deeper than ${MAX_XML_DEPTH} levels`);
  });
});
