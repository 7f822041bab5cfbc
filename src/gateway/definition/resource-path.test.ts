import { describe, expect, it } from 'vitest';
import { isDisguisedDotSegment, resourceKey } from './resource-path.ts';

describe('resourceKey', () => {
  it('reads a path as the most lenient upstream does', () => {
    expect(resourceKey('/admin')).toBe('/admin');
    expect(resourceKey('/admin/')).toBe('/admin');
    expect(resourceKey('/admin;x')).toBe('/admin');
    expect(resourceKey('/admin%3Bx')).toBe('/admin');
    expect(resourceKey('/admin%20')).toBe('/admin');
    expect(resourceKey('/admin%09')).toBe('/admin');
    expect(resourceKey('/admin.')).toBe('/admin');
    expect(resourceKey('/admin. . ')).toBe('/admin');
    expect(resourceKey('/a;x=1/b;y=2/c')).toBe('/a/b/c');
    expect(resourceKey('/%20admin')).toBe('/admin');
  });

  it('keeps what a server would not drop', () => {
    expect(resourceKey('/Admin')).toBe('/Admin');
    expect(resourceKey('/admin.json')).toBe('/admin.json');
    expect(resourceKey('/admin/x')).toBe('/admin/x');
    expect(resourceKey('/')).toBe('/');
    expect(resourceKey('/%C3%A9t%C3%A9')).toBe('/été');
  });
});

describe('isDisguisedDotSegment', () => {
  it('spots . and .. behind parameters, escapes and padding', () => {
    for (const segment of ['..;', '..;x', '.;', '%2e%2e;', '%2E%2e%3B', '..%3b', '.%20', '..%09']) expect(isDisguisedDotSegment(segment), segment).toBe(true);
  });

  it('leaves plain dot-segments (resolved elsewhere) and names with dots alone', () => {
    for (const segment of ['.', '..', '...', 'a..;', '.well-known', 'v1.0;x', '']) expect(isDisguisedDotSegment(segment), segment).toBe(false);
  });
});
