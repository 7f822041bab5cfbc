// The portal's Markdown renderer (markdown.ts): what it renders, and that nothing in the source becomes markup
// or a script link — raw HTML, javascript:/data: links, attribute break-outs — and that hostile input stays linear.
import { describe, expect, it } from 'vitest';
import { markdown, safeLinkUrl } from './markdown.ts';

const render = (text: string, headingOffset?: number): string => markdown(text, headingOffset === undefined ? {} : { headingOffset }).text;

describe('markdown', () => {
  it('renders headings, paragraphs, emphasis, code, lists, quotes and links', () => {
    const source = [
      '# Weather',
      '',
      'Forecasts for **any** city, *hour* by _hour_.',
      'Call `GET /forecast/{city}`.',
      '',
      '- one',
      '- [two](https://example.com/docs?a=1&b=2)',
      '',
      '1. first',
      '2. second',
      '',
      '> quoted',
      '',
      '```',
      'curl -H "Authorization: <key>" /weather/',
      '```',
      '---',
    ].join('\n');
    expect(render(source).split('\n')).toEqual([
      '<h1>Weather</h1>',
      '<p>Forecasts for <strong>any</strong> city, <em>hour</em> by <em>hour</em>.',
      'Call <code>GET /forecast/{city}</code>.</p>',
      '<ul><li>one</li><li><a href="https://example.com/docs?a=1&amp;b=2" rel="nofollow noopener noreferrer">two</a></li></ul>',
      '<ol><li>first</li><li>second</li></ol>',
      '<blockquote><p>quoted</p></blockquote>',
      '<pre><code>curl -H &quot;Authorization: &lt;key&gt;&quot; /weather/</code></pre>',
      '<hr>',
    ]);
  });

  it('shifts heading levels by the offset, never past h6', () => {
    expect(render('# A\n###### B', 2)).toBe('<h3>A</h3>\n<h6>B</h6>');
  });

  it('shows raw HTML as text', () => {
    expect(render('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(render('<img src=x onerror=alert(1)>')).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>');
    expect(render('**<b>x</b>**')).toBe('<p><strong>&lt;b&gt;x&lt;/b&gt;</strong></p>');
  });

  it('keeps the text of javascript:, data: and other-scheme links but never their href', () => {
    for (const url of ['javascript:alert`1`', 'JaVaScRiPt:void', 'data:text/html;base64,PHNjcmlwdD4=', 'vbscript:x', 'file:///etc/passwd']) {
      expect(render(`[click](${url})`), url).toBe('<p>click</p>');
    }
    expect(render('[click](javascript:alert(1))')).toBe('<p>click)</p>');
    // A tab or other control character cannot smuggle a scheme past the check (browsers drop them from URLs).
    expect(safeLinkUrl('java\tscript:alert(1)')).toBeUndefined();
    expect(safeLinkUrl('java\u0000script:alert(1)')).toBeUndefined();
  });

  it('allows http(s), mailto and relative links', () => {
    expect(safeLinkUrl('https://example.com')).toBe('https://example.com');
    expect(safeLinkUrl('mailto:api@example.com')).toBe('mailto:api@example.com');
    expect(safeLinkUrl('/portal/apis/')).toBe('/portal/apis/');
    expect(safeLinkUrl('#usage')).toBe('#usage');
  });

  it('cannot break out of the href attribute', () => {
    expect(render('[x](https://e.com/"onmouseover="alert(1))')).toBe(
      '<p><a href="https://e.com/&quot;onmouseover=&quot;alert(1" rel="nofollow noopener noreferrer">x</a>)</p>',
    );
    expect(render("[x](https://e.com/'><script>)")).toBe('<p><a href="https://e.com/&#39;&gt;&lt;script&gt;" rel="nofollow noopener noreferrer">x</a></p>');
  });

  it('escapes entities so that an encoded scheme stays text', () => {
    expect(render('[x](javascript&colon;alert(1))')).toBe('<p><a href="javascript&amp;colon;alert(1" rel="nofollow noopener noreferrer">x</a>)</p>');
  });

  it('shows unclosed delimiters and backslash escapes as text', () => {
    expect(render('2 * 3 and a_b_c and `open and [open](')).toBe('<p>2 * 3 and a_b_c and `open and [open](</p>');
    expect(render('\\*not em\\*')).toBe('<p>*not em*</p>');
  });

  it('stays linear on input made to be slow (100 000 unmatched openers)', () => {
    for (const opener of ['*', '[', '`', '**', '[a](', '_']) {
      const text = opener.repeat(100_000 / opener.length);
      // A quadratic renderer would take minutes here and hit the test's timeout; the text comes back escaped.
      expect(render(text)).not.toContain('<a ');
    }
  });
});
