// A gRPC authentication plugin's id_extractor as the gateway, the webhook and the dashboard read it
// (grpc-auth-plugin.ts): each source and method with its configuration, an extractor not in use, and each refusal
// named by its field.
import { describe, expect, it } from 'vitest';
import { readIdExtractor } from './grpc-auth-plugin.ts';
import { PluginFieldError } from './js-plugins.ts';

const api = (idExtractor: unknown, extra: Record<string, unknown> = {}) => ({
  enable_coprocess_auth: true,
  custom_middleware: { driver: 'grpc', auth_check: { name: 'Auth' }, id_extractor: idExtractor },
  ...extra,
});

function refusal(def: Record<string, unknown>): { field: string; problem: string } {
  try {
    readIdExtractor(def);
  } catch (error) {
    if (error instanceof PluginFieldError) return { field: error.field, problem: error.problem };
    throw error;
  }
  throw new Error('not refused');
}

describe('id_extractor', () => {
  it('is not in use when disabled or empty (as Tyk writes it by default)', () => {
    expect(readIdExtractor(api({ extract_from: '', extract_with: '', extractor_config: {} }))).toBeUndefined();
    expect(readIdExtractor(api({ disabled: true, extract_from: 'header', extract_with: 'value' }))).toBeUndefined();
    expect(readIdExtractor({ custom_middleware: { driver: 'otto' } })).toBeUndefined();
  });

  it('reads a header value, a form field by regex and the body by XPath', () => {
    expect(readIdExtractor(api({ extract_from: 'header', extract_with: 'value', extractor_config: { header_name: 'X-User' } }))).toEqual({
      from: 'header',
      name: 'X-User',
      extract: { with: 'value' },
    });
    const regex = readIdExtractor(
      api({ extract_from: 'form', extract_with: 'regex', extractor_config: { param_name: 'user', regex_expression: '[a-z]+', regex_match_index: 1 } }),
    );
    expect(regex?.from).toBe('form');
    expect(regex?.name).toBe('user');
    expect(regex?.extract.with === 'regex' && regex.extract.matchIndex).toBe(1);
    expect(regex?.extract.with === 'regex' && regex.extract.regexp.findAll('ab-cd-ef', 5)).toEqual(['ab', 'cd', 'ef']);
    const xpath = readIdExtractor(api({ extract_from: 'body', extract_with: 'xpath', extractor_config: { xpath_expression: '//user/@id' } }));
    expect(xpath?.extract.with === 'xpath' && xpath.extract.path.steps.length).toBe(3);
  });

  it('is refused, naming the field, where Tyk would disable it or refuse every request without a word', () => {
    const header = { extract_from: 'header', extract_with: 'value', extractor_config: { header_name: 'X-User' } };
    expect(refusal(api(header, { enable_coprocess_auth: false })).field).toBe('custom_middleware.id_extractor');
    expect(refusal({ custom_middleware: { driver: 'otto', auth_check: { name: 'auth' }, id_extractor: header }, custom_plugin_auth_enabled: true }).field).toBe(
      'custom_middleware.id_extractor',
    );
    expect(refusal(api({ ...header, extract_from: 'cookie' })).field).toBe('custom_middleware.id_extractor.extract_from');
    expect(refusal(api({ ...header, extract_with: 'jsonpath' })).field).toBe('custom_middleware.id_extractor.extract_with');
    expect(refusal(api({ ...header, extractor_config: {} })).field).toBe('custom_middleware.id_extractor.extractor_config.header_name');
    expect(refusal(api({ extract_from: 'form', extract_with: 'value', extractor_config: { header_name: 'X' } })).field).toBe(
      'custom_middleware.id_extractor.extractor_config.param_name',
    );
    const bodyValue = refusal(api({ extract_from: 'body', extract_with: 'value' }));
    expect(bodyValue.field).toBe('custom_middleware.id_extractor.extract_with');
    expect(bodyValue.problem).toContain('every request would share one session');
    const regex = (config: Record<string, unknown>) => api({ extract_from: 'body', extract_with: 'regex', extractor_config: config });
    expect(refusal(regex({})).field).toBe('custom_middleware.id_extractor.extractor_config.regex_expression');
    expect(refusal(regex({ regex_expression: '(a)\\1' })).problem).toContain('backreferences are not supported');
    expect(refusal(regex({ regex_expression: 'a', regex_match_index: -1 })).field).toBe('custom_middleware.id_extractor.extractor_config.regex_match_index');
    expect(refusal(regex({ regex_expression: 'a', regex_match_index: '1' })).field).toBe('custom_middleware.id_extractor.extractor_config.regex_match_index');
    const xpath = (expression: unknown) => api({ extract_from: 'body', extract_with: 'xpath', extractor_config: { xpath_expression: expression } });
    expect(refusal(xpath(undefined)).field).toBe('custom_middleware.id_extractor.extractor_config.xpath_expression');
    expect(refusal(xpath('//soap:Body/user')).problem).toContain('prefixed names');
  });
});
