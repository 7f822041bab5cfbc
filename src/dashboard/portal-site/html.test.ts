// The portal's HTML templating: interpolated text is always escaped, markup only when it is already Html.
import { describe, expect, it } from 'vitest';
import { html, paragraphs } from './html.ts';

describe('portal html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const name = `<script>alert("x")</script> & 'quotes'`;
    expect(html`<h2 title="${name}">${name}</h2>`.text).toBe(
      '<h2 title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</h2>',
    );
  });

  it('keeps nested Html, joins arrays, drops null, undefined and false', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0');
  });

  it('turns text into escaped paragraphs', () => {
    expect(paragraphs('one <b>\nline two\n\n  second  \n\n\n').text).toBe('<p>one &lt;b&gt;<br>line two</p><p>second</p>');
  });
});
