// db/rows.ts: the row conversions the dashboard's and the governance hub's stores share.
import { describe, expect, it } from 'vitest';
import { fromJsonb, isUniqueViolation, iso, jsonb } from './rows.ts';

describe('row mapping', () => {
  it('reads a timestamptz as ISO 8601 whether the driver hands a Date or a string', () => {
    expect(iso(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)))).toBe('2026-01-02T03:04:05.678Z');
    expect(iso('2026-01-02 04:04:05.678+01')).toBe('2026-01-02T03:04:05.678Z');
  });

  it('writes a JSONB parameter as JSON text and reads a JSONB column parsed or as text', () => {
    expect(jsonb({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
    expect(fromJsonb({ a: 1 })).toEqual({ a: 1 });
    expect(fromJsonb('{"a":1}')).toEqual({ a: 1 });
  });

  it('tells a unique violation (SQLSTATE 23505) from other errors', () => {
    expect(isUniqueViolation(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error('foreign key'), { code: '23503' }))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
