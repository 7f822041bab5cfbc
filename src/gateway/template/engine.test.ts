// The binding through the real engine (Go text/template + sprig v3 in WebAssembly): Tyk's documented golden
// cases (docs/compatibility.md, gateway/mw_transform_test.go), the body-to-map conventions of §5.2, and the
// errors a definition or a request can meet.
import { beforeAll, describe, expect, it } from 'vitest';
import { builtTemplateEngine } from '../../../test/support/template-engine.ts';
import { BodyDecodeError, TemplateEngine, TemplateExecuteError, TemplateParseError, type InputFormat } from './engine.ts';

let engine: TemplateEngine;
beforeAll(() => {
  engine = TemplateEngine.load(builtTemplateEngine());
}, 180_000);

function run(source: string, body: string, format: InputFormat, extra?: object): string {
  const template = engine.compile('test', source);
  try {
    return engine.execute(template, Buffer.from(body), format, extra ? Buffer.from(JSON.stringify(extra)) : undefined).toString('utf8');
  } finally {
    engine.release(template);
  }
}

describe('golden cases of Tyk (reference §5.4)', () => {
  it('XML repeated elements become a list; jsonMarshal escapes as Go does', () => {
    const template = '[{{range $x, $s := .names.name}}{{$s | jsonMarshal}}{{if not $x}}, {{end}}{{end}}]';
    expect(run(template, '<names><name>Foo"oo</name><name>Bàr</name></names>', 'xml')).toBe('["Foo\\"oo", "Bàr"]');
  });

  it('a JSON array is under .array', () => {
    const template = '[{{ range $key, $value := .array }}{{ if $key }},{{ end }}{{ .abc }}{{ end }}]';
    expect(run(template, '[{"abc":123},{"abc":456}]', 'json')).toBe('[123,456]');
  });

  it('xmlMarshal of a JSON map and of the same XML', () => {
    const expected = '<brothers><name>Furkan</name><name>Ahmet</name><name>Mohammad Ali</name></brothers>';
    expect(run('{{. | xmlMarshal}}', '{"brothers":{"name":["Furkan","Ahmet","Mohammad Ali"]}}', 'json')).toBe(expected);
    expect(run('{{. | xmlMarshal}}', expected, 'xml')).toBe(expected);
  });

  it('xmlMarshal escapes a map value, and a non-map goes through encoding/xml', () => {
    expect(run('{{. | xmlMarshal}}', '{"test":"<"}', 'json')).toBe('<test>&lt;</test>');
    expect(run('{{ index . "test" | xmlMarshal }}', '{"test":"<"}', 'json')).toBe('<string>&lt;</string>');
  });

  it('sprig functions work', () => {
    expect(run('{{.engineer | repeat 2}}', '{"engineer":"Ahmet"}', 'json')).toBe('AhmetAhmet');
  });
});

describe('Go semantics a re-implementation would miss (reference §5.4 traps)', () => {
  it('numbers are float64 printed with %v, json.Marshal escapes <>&, a missing key prints <no value>', () => {
    expect(run('{{.n}} {{.m}}', '{"n":123456789,"m":12}', 'json')).toBe('1.23456789e+08 12');
    expect(run('{{.s | jsonMarshal}}', '{"s":"<a&b>"}', 'json')).toBe('"\\u003ca\\u0026b\\u003e"');
    expect(run('{{.missing}}', '{}', 'json')).toBe('<no value>');
  });

  it('range over a map is in sorted key order', () => {
    expect(run('{{range $k, $v := .}}{{$k}}={{$v}};{{end}}', '{"b":2,"a":1,"c":3}', 'json')).toBe('a=1;b=2;c=3;');
  });

  it('XML attributes are -name, text with attributes is #text, leaves are strings', () => {
    const body = '<?xml version="1.0"?><order id="7"><item sku="a1">pen</item><qty>3</qty></order>';
    expect(
      run('{{.order._id}}|{{index .order "-id"}}|{{index .order.item "-sku"}}|{{index .order.item "#text"}}|{{.order.qty | jsonMarshal}}', body, 'xml'),
    ).toBe('<no value>|7|a1|pen|"3"');
  });

  it('an empty body is {} (JSON) or <_/> (XML)', () => {
    expect(run('{{. | jsonMarshal}}', '', 'json')).toBe('{}');
    expect(run('{{. | jsonMarshal}}', '', 'xml')).toBe('{"_":""}');
  });

  it('extra root keys (_gw_meta, _gw_context) join the body map', () => {
    const extra = { _gw_meta: { tier: 'gold' }, _gw_context: { request_data: { type: ['a', 'b'] }, path_parts: ['', 'x'] } };
    expect(run('{{.id}} {{._gw_meta.tier}} {{index ._gw_context.request_data.type 0}} {{index ._gw_context.path_parts 1}}', '{"id":1}', 'json', extra)).toBe(
      '1 gold a x',
    );
  });

  it('env and expandenv are not available (Tyk removes them)', () => {
    expect(() => engine.compile('t', '{{env "HOME"}}')).toThrow(/function "env" not defined/);
  });
});

describe('errors', () => {
  it('a template that does not parse: Go message naming the template and its line', () => {
    expect(() => engine.compile('spec.transform[0]', '{{.a}}\n{{ .b }')).toThrow(
      new TemplateParseError('template: spec.transform[0]:2: unexpected "}" in operand'),
    );
  });

  it('a failing execution: Go message with line and column; the engine keeps serving', () => {
    expect(() => run('{{.x.y}}', '{"x":1}', 'json')).toThrow(TemplateExecuteError);
    expect(() => run('{{.x.y}}', '{"x":1}', 'json')).toThrow(/test:1:4: executing "test" at <.x.y>/);
    expect(() => run('{{.}}', '{not json', 'json')).toThrow(BodyDecodeError);
    expect(() => run('{{.}}', '<a>', 'xml')).toThrow(
      new BodyDecodeError('error unmarshalling XML: xml.Decoder.Token() - XML syntax error on line 1: unexpected EOF'),
    );
    expect(run('{{.ok}}', '{"ok":"yes"}', 'json')).toBe('yes');
  });

  it('bodies larger than the initial memory cross intact', () => {
    const big = 'x'.repeat(8 * 1024 * 1024);
    expect(run('{{len .s}}', JSON.stringify({ s: big }), 'json')).toBe(String(big.length));
  });
});
