// The endpoint designer's rules read from and written into a Classic definition's default version, every other
// field, list and version left alone, and a refused field mapped back to the rule's input that wrote it.
import { describe, expect, it } from 'vitest';
import { fieldOfRule, newRule, refusedInput, rulesOf, withKind, withRules, type EndpointRule } from './endpoint-rules.ts';

const definition = {
  name: 'Orders',
  version_data: {
    not_versioned: false,
    default_version: 'v1',
    versions: {
      v1: {
        name: 'v1',
        extended_paths: {
          ignored: [{ path: '/health' }],
          white_list: [
            { path: '/status', method: 'GET', ignore_case: true, method_actions: { GET: { action: 'reply', code: 201, data: 'up', headers: { 'X-A': '1' } } } },
          ],
          hard_timeouts: [{ path: '/slow', method: 'POST', timeout: 5 }],
          virtual: [{ path: '/v', method: 'GET', response_function_name: 'f' }],
        },
      },
      v2: { name: 'v2', extended_paths: { black_list: [{ path: '/x', method: 'GET' }] } },
    },
  },
};

const extendedOf = (written: Record<string, unknown>, version = 'v1'): Record<string, unknown> =>
  (written.version_data as { versions: Record<string, { extended_paths: Record<string, unknown> }> }).versions[version]!.extended_paths;

describe('endpoint rules', () => {
  it("reads the default version's lists as rules", () => {
    expect(rulesOf(definition).map((r) => [r.kind, r.path, r.method, r.values])).toEqual([
      ['mock', '/status', 'GET', { code: '201', body: 'up', headers: 'X-A: 1' }],
      ['ignore', '/health', '', {}],
      ['timeout', '/slow', 'POST', { timeout: '5' }],
    ]);
  });

  it('writes the rules back as they were, other lists and versions kept', () => {
    const written = withRules(definition, rulesOf(definition));
    expect(extendedOf(written)).toEqual({
      ...definition.version_data.versions.v1.extended_paths,
      // The mock is written with its method's action only (it had no other).
      white_list: [
        {
          ...definition.version_data.versions.v1.extended_paths.white_list[0],
          method_actions: { GET: { action: 'reply', code: 201, data: 'up', headers: { 'X-A': '1' } } },
        },
      ],
    });
    expect(extendedOf(written, 'v2')).toEqual(definition.version_data.versions.v2.extended_paths);
    expect(written.name).toBe('Orders');
  });

  it('writes a block and a new mock (to ignored, so other endpoints stay open) and switches extended paths on', () => {
    const bare = { name: 'A', version_data: { default_version: 'Default', versions: { Default: { name: 'Default' } } } };
    const block: EndpointRule = { ...newRule('block'), path: '/admin' };
    const mock: EndpointRule = { ...newRule('mock'), path: '/status', values: { code: '200', body: '{"ok":true}', headers: 'Content-Type: application/json' } };
    const written = withRules(bare, [block, mock]);
    const version = (written.version_data as { versions: { Default: Record<string, unknown> } }).versions.Default;
    expect(version.use_extended_paths).toBe(true);
    expect(version.extended_paths).toEqual({
      black_list: [{ path: '/admin', method: 'GET', method_actions: { GET: { action: 'no_action' } } }],
      ignored: [
        {
          path: '/status',
          method: 'GET',
          method_actions: { GET: { action: 'reply', code: 200, data: '{"ok":true}', headers: { 'Content-Type': 'application/json' } } },
        },
      ],
    });
    expect(extendedOf(withRules(written, []), 'Default')).toEqual({});
  });

  it('sends what does not parse as typed, so the dashboard refuses it at its field', () => {
    const rules: EndpointRule[] = [
      { ...newRule('timeout'), path: '/a', values: { timeout: 'soon' } },
      { ...newRule('headers'), path: '/b', values: { add_headers: 'no colon here', delete_headers: 'X-A, X-B' } },
      { ...newRule('validate'), path: '/c', method: 'POST', values: { schema: '{ not json', error_response_code: '' } },
      { ...newRule('size'), path: '/d', method: 'POST', values: { size_limit: '1024' } },
      { ...newRule('responseHeaders'), path: '/e', values: { add_headers: 'Cache-Control: no-store', delete_headers: 'Server' } },
    ];
    const extended = extendedOf(withRules(definition, rules));
    expect(extended.hard_timeouts).toEqual([{ path: '/a', method: 'GET', timeout: 'soon' }]);
    expect(extended.transform_headers).toEqual([{ path: '/b', method: 'GET', add_headers: 'no colon here', delete_headers: ['X-A', 'X-B'] }]);
    expect(extended.validate_json).toEqual([{ path: '/c', method: 'POST', schema: '{ not json' }]);
    expect(extended.size_limits).toEqual([{ path: '/d', method: 'POST', size_limit: 1024 }]);
    expect(extended.transform_response_headers).toEqual([
      { path: '/e', method: 'GET', add_headers: { 'Cache-Control': 'no-store' }, delete_headers: ['Server'] },
    ]);
    expect(rulesOf(withRules(definition, rules)).find((r) => r.kind === 'responseHeaders')?.values).toEqual(rules[4]!.values);
    // The lists the designer does not manage are kept.
    expect(extended.virtual).toEqual(definition.version_data.versions.v1.extended_paths.virtual);
  });

  it('writes a body transform template as a UTF-8 blob and reads it back as text', () => {
    const rule: EndpointRule = { ...newRule('transform'), path: '/t', method: 'POST', values: { input_type: 'json', template: '{"name": "{{.name}} – ü"}' } };
    const written = withRules(definition, [rule]);
    const entry = (extendedOf(written).transform as { template_data: Record<string, unknown> }[])[0]!;
    expect(entry.template_data).toEqual({ input_type: 'json', template_mode: 'blob', template_source: 'eyJuYW1lIjogInt7Lm5hbWV9fSDigJMgw7wifQ==' });
    expect(rulesOf(written).find((r) => r.kind === 'transform')?.values).toEqual(rule.values);
  });

  it("maps a refused field to the rule's input, counting each list on its own", () => {
    const rules: EndpointRule[] = [
      { ...newRule('block'), path: '/admin' },
      { ...newRule('timeout'), path: '/a' },
      { ...newRule('block'), path: '/b' },
      { ...newRule('mock'), path: '/m' },
    ];
    expect(fieldOfRule(definition, rules, 2)).toBe('version_data.versions.v1.extended_paths.black_list[1]');
    const at = (i: number, refused: string): string | undefined => refusedInput(rules[i]!, fieldOfRule(definition, rules, i), refused);
    const prefix = 'version_data.versions.v1.extended_paths';
    expect(at(1, `${prefix}.hard_timeouts[0].timeout`)).toBe('timeout');
    expect(at(2, `${prefix}.black_list[1].path`)).toBe('path');
    expect(at(0, `${prefix}.black_list[1].path`)).toBeUndefined();
    expect(at(3, `${prefix}.ignored[0].method_actions.GET.code`)).toBe('code');
    expect(at(3, `${prefix}.ignored[0].method_actions.GET.headers`)).toBe('headers');
    expect(at(1, `${prefix}.hard_timeouts[0]`)).toBe('rule');
  });

  it('keeps path and method when the kind changes, and a method where the new kind needs one', () => {
    const any: EndpointRule = { ...newRule('block'), path: '/p', method: '' };
    expect(withKind(any, 'timeout')).toMatchObject({ kind: 'timeout', path: '/p', method: 'GET', values: { timeout: '30' } });
    expect(withKind(any, 'ignore')).toMatchObject({ kind: 'ignore', path: '/p', method: '' });
    expect(withKind(any, 'cache')).toMatchObject({ kind: 'cache', method: '' });
  });
});
