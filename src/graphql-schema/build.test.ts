import { describe, expect, it } from 'vitest';
import { buildSchemaFromSdl, describeSdlProblem } from './build.ts';

const problem = (sdl: string): string => {
  const built = buildSchemaFromSdl(sdl);
  return 'problem' in built ? describeSdlProblem(built.problem) : 'ok';
};

describe('buildSchemaFromSdl', () => {
  it('builds a valid SDL', () => {
    expect(problem('type Query { a: Int }\ntype Mutation { b(x: Int): Int }')).toBe('ok');
  });

  it('names the line and column of syntax errors and of schema rule violations', () => {
    expect(problem('type Query {\n  a Int\n}')).toBe('line 2, column 5: syntax error: Expected ":", found Name "Int".');
    expect(problem('type Query {\n  a: Int\n  b: Foo\n}')).toBe('line 3, column 6: Unknown type "Foo".');
    expect(problem('type Query {\n  a: Int\n  a: String\n}')).toBe('line 2, column 3: Field "Query.a" can only be defined once.');
  });

  it('refuses a schema without a Query type, without a location', () => {
    expect(problem('type User { id: ID }')).toBe('Query root type must be provided.');
  });
});
