// The dashboard's refusal messages split into fields (the wording of src/domain/zod-issues.ts).
import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, pathOf } from './field-errors.ts';

describe('fieldErrorsOf', () => {
  it('splits a malformed-request message into one entry per field', () => {
    expect(
      fieldErrorsOf('Request malformed: proxy.listen_path: Invalid input: expected string, received number; version_data.versions.v1[2].name: Too small'),
    ).toEqual([
      { field: 'proxy.listen_path', path: ['proxy', 'listen_path'], message: 'Invalid input: expected string, received number' },
      { field: 'version_data.versions.v1[2].name', path: ['version_data', 'versions', 'v1', 2, 'name'], message: 'Too small' },
    ]);
  });

  it('reads a message that names a field without the prefix, and none from a message without a field', () => {
    expect(fieldErrorsOf('proxy.listen_path: /a/ is already used by API x of this organisation')).toEqual([
      { field: 'proxy.listen_path', path: ['proxy', 'listen_path'], message: '/a/ is already used by API x of this organisation' },
    ]);
    expect(fieldErrorsOf('access denied: requires apis write')).toEqual([]);
    expect(fieldErrorsOf('Not authorised')).toEqual([]);
  });

  it('reads a field through an OAS operationId Tyk generates from a path with a parameter', () => {
    expect(fieldErrorsOf('Request malformed: x-gw-api-gateway.middleware.operations.pets/{id}GET.enforceTimeout.value: Invalid input')).toEqual([
      {
        field: 'x-gw-api-gateway.middleware.operations.pets/{id}GET.enforceTimeout.value',
        path: ['x-gw-api-gateway', 'middleware', 'operations', 'pets/{id}GET', 'enforceTimeout', 'value'],
        message: 'Invalid input',
      },
    ]);
  });

  it('writes paths with indexes as numbers', () => {
    expect(pathOf('a.b[10].c')).toEqual(['a', 'b', 10, 'c']);
  });
});
