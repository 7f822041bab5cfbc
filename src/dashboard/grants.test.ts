// No way up: a grant above the caller's own permission, a group granting one, or managing someone holding one is
// refused with 403 naming it; equal or lower is allowed.
import { describe, expect, it } from 'vitest';
import type { Caller } from './access.ts';
import { checkGrant, checkGroupGrant, checkNotAbove } from './grants.ts';
import type { Permissions } from './store/users.ts';

const caller = (user_permissions: Partial<Permissions>): Caller => ({ user: { user_permissions } }) as unknown as Caller;
const lee = caller({ users: 'write', user_groups: 'write', apis: 'read' });

describe('grants', () => {
  it('refuses a permission above the caller’s own, naming it', () => {
    expect(() => checkGrant(lee, { apis: 'write' })).toThrow('user_permissions.apis: you cannot grant write: your own permission is read');
    expect(() => checkGrant(lee, { keys: 'read' })).toThrow('user_permissions.keys: you cannot grant read: your own permission is deny');
    expect(() => checkGrant(lee, { apis: 'read', users: 'write', keys: 'deny' })).not.toThrow();
  });

  it('refuses a group granting above the caller’s own as a place for a user', () => {
    expect(() => checkGroupGrant(lee, { name: 'Operators', user_permissions: { apis: 'write' } })).toThrow(
      'user_group_id: the user group Operators grants apis write, above your own permission (read)',
    );
    expect(() => checkGroupGrant(lee, { name: 'Readers', user_permissions: { apis: 'read' } })).not.toThrow();
  });

  it('refuses to manage a user or group holding more', () => {
    expect(() => checkNotAbove(lee, { analytics: 'read' }, 'user group')).toThrow(
      'you cannot manage a user group whose permissions exceed your own: they hold analytics read, you hold deny',
    );
    expect(() => checkNotAbove(lee, { users: 'write' }, 'user')).not.toThrow();
  });
});
