// The audit hook's reading of a write: the object type by route, the action by method and path, and the object id
// from the path or the answer, a key always by its SHA-256 (the key itself is a secret and never recorded).
import { describe, expect, it } from 'vitest';
import { hashKey } from '../domain/key-hash.ts';
import { actionOf, objectIdOf, objectTypeOf } from './audit.ts';

describe('audit entries', () => {
  it('names the object type by the route, the longest prefix first', () => {
    expect(objectTypeOf('/api/portal/policies/:id')).toBe('policy');
    expect(objectTypeOf('/api/portal/developers/:id/keys/:keyId')).toBe('developer');
    expect(objectTypeOf('/api/apis/oas/:id')).toBe('api');
    expect(objectTypeOf('/api/usergroups')).toBe('user_group');
    expect(objectTypeOf('/api/users/:id/actions/key/reset')).toBe('user');
    expect(objectTypeOf('/api/something/:id')).toBe('something');
  });

  it('names the action by method and path', () => {
    expect(actionOf('POST', '/api/users')).toBe('created');
    expect(actionOf('POST', '/api/users/:id/actions/key/reset')).toBe('key reset');
    expect(actionOf('POST', '/api/users/:id/actions/reset')).toBe('password set');
    expect(actionOf('PATCH', '/api/apis/:id/governance-labels')).toBe('labels applied');
    expect(actionOf('POST', '/api/import/swagger')).toBe('imported');
    expect(actionOf('PUT', '/api/apis/:id')).toBe('updated');
    expect(actionOf('DELETE', '/api/keys/:key')).toBe('deleted');
  });

  it('takes the id from the path, else from the answer; a key only by its hash, whether in the path or the answer', () => {
    expect(objectIdOf('api', { id: 'a1' }, false, '{}')).toBe('a1');
    expect(objectIdOf('key', { key: 'secret-key' }, false, '{}')).toBe(hashKey('secret-key'));
    expect(objectIdOf('key', { key: 'stored-hash' }, true, '{}')).toBe('stored-hash');
    expect(objectIdOf('key', {}, false, JSON.stringify({ action: 'create', key: 'new-secret', status: 'ok' }))).toBe(hashKey('new-secret'));
    expect(objectIdOf('api', {}, false, JSON.stringify({ Status: 'OK', Message: 'API created', Meta: 'new-api' }))).toBe('new-api');
    expect(objectIdOf('user', {}, false, JSON.stringify({ Status: 'OK', Meta: { id: 'u1', access_key: 'k' } }))).toBe('u1');
    expect(objectIdOf('policy', {}, false, JSON.stringify({ Status: 'OK', Message: 'p1', Meta: null }))).toBe('p1');
    expect(objectIdOf('certificate', {}, false, JSON.stringify({ id: 'c1', status: 'ok' }))).toBe('c1');
    expect(objectIdOf('api', {}, false, 'not json')).toBe('');
  });
});
