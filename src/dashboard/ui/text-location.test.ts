// Finding a field's place in the editor's JSON or YAML text.
import { describe, expect, it } from 'vitest';
import { locateField } from './text-location.ts';

const at = (text: string, path: (string | number)[]): string => {
  const { from, to } = locateField(text, path);
  return text.slice(from, to);
};

describe('locateField', () => {
  it('finds a nested key in JSON and in YAML', () => {
    const json = JSON.stringify({ name: 'x', proxy: { target_url: 'http://a', listen_path: 42 } }, null, 2);
    expect(at(json, ['proxy', 'listen_path'])).toBe('"listen_path"');
    expect(at('name: x\nproxy:\n  listen_path: 42\n', ['proxy', 'listen_path'])).toBe('listen_path');
  });

  it('finds list items by index', () => {
    expect(at('{"tags": ["a", 7]}', ['tags', 1])).toBe('7');
  });

  it('points a missing field at the nearest enclosing object that exists', () => {
    expect(at('{"proxy": {"target_url": "http://a"}}', ['proxy', 'listen_path'])).toBe('"proxy"');
    expect(at('{"name": "x"}', ['proxy', 'listen_path'])).toBe('{"name": "x"}');
  });
});
