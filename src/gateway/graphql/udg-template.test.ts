// Rendering of UDG data source templates (udg-template.ts): the three selectors, value shapes, URL encoding.
import { describe, expect, it } from 'vitest';
import { renderTemplate, renderUrlTemplate } from './udg-template.ts';

const values = {
  arguments: { id: 'a b/c', ids: [1, 2], n: 7 },
  object: { id: 42, owner: { login: 'ada' } },
  requestHeaders: { 'x-tenant': 'acme' },
};

describe('UDG templates', () => {
  it('renders arguments, nested object paths and request headers', () => {
    expect(renderTemplate('{{ .arguments.n }}/{{.object.owner.login}}/{{ .request.headers.X-Tenant }}', values)).toBe('7/ada/acme');
  });

  it('renders lists and objects as JSON and a missing value as nothing', () => {
    expect(renderTemplate('{"ids":{{ .arguments.ids }},"o":{{ .object.owner }},"m":"{{ .arguments.missing }}"}', values)).toBe(
      '{"ids":[1,2],"o":{"login":"ada"},"m":""}',
    );
  });

  it('percent-encodes values placed in a URL, so an argument cannot add path segments', () => {
    expect(renderUrlTemplate('http://h/users/{{ .arguments.id }}?o={{ .object.id }}', values)).toBe('http://h/users/a%20b%2Fc?o=42');
  });

  it('leaves other selectors as written and does not render a value twice', () => {
    expect(renderTemplate('{{ .other.x }} {{ .arguments.t }}', { ...values, arguments: { t: '{{ .object.id }}' } })).toBe('{{ .other.x }} {{ .object.id }}');
  });
});
