// page-content.ts: a portal page's body from its Markdown fields (Tyk's home template fields laid out), never raw HTML.
import { describe, expect, it } from 'vitest';
import { pageBody, portalHref } from './page-content.ts';

const BASE = '/portal/org1/';

describe('a portal page body', () => {
  it("lays out Tyk's home template fields: heading, subheading, call to action and panels", () => {
    const body = pageBody(BASE, {
      title: 'Home',
      fields: {
        JumboCTATitle: 'Weather APIs',
        SubHeading: 'Forecasts for any city',
        JumboCTALink: 'apis/',
        JumboCTALinkTitle: 'See the APIs',
        PanelOneTitle: 'Fast',
        PanelOneContent: 'Answers in **10 ms**.',
        PanelOneLink: 'https://status.example.test/',
        PanelOneLinkTitle: 'Status',
      },
    }).text;
    expect(body).toContain('<h1>Weather APIs</h1>');
    expect(body).toContain('<p class="lead">Forecasts for any city</p>');
    expect(body).toContain('<a class="button-link" href="/portal/org1/apis/">See the APIs</a>');
    expect(body).toContain('<h2 id="panel-One">Fast</h2>');
    expect(body).toContain('<strong>10 ms</strong>');
    expect(body).toContain('href="https://status.example.test/">Status</a>');
    expect(body).not.toContain('panel-Two');
  });

  it('renders PageContent and other fields as Markdown, raw HTML as text, unsafe links as text', () => {
    const body = pageBody(BASE, {
      title: 'About <us>',
      fields: {
        PageContent: '## Who\n\n<script>alert(1)</script> [x](javascript:alert(1))',
        Zeta: 'last',
        Alpha: 'first',
        JumboCTALink: 'javascript:alert(1)',
      },
    }).text;
    expect(body).toContain('<h1>About &lt;us&gt;</h1>');
    expect(body).toContain('<h3>Who</h3>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('href="javascript:');
    expect(body).not.toContain('button-link');
    expect(body.indexOf('first')).toBeLessThan(body.indexOf('last'));
  });
});

describe('a link of the portal', () => {
  it('resolves a relative path under the portal and keeps safe absolute ones', () => {
    expect(portalHref(BASE, 'about')).toBe('/portal/org1/about');
    expect(portalHref(BASE, '/about/')).toBe('/portal/org1/about/');
    expect(portalHref(BASE, '/portal/apis/')).toBe('/portal/org1/apis/');
    expect(portalHref(BASE, 'https://example.test/x')).toBe('https://example.test/x');
    expect(portalHref(BASE, '#top')).toBe('#top');
    expect(portalHref(BASE, 'javascript:alert(1)')).toBeUndefined();
    expect(portalHref(BASE, '//evil.test/')).toBeUndefined();
  });
});
