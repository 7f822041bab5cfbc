// Users of the organisation (permission `users`): the list with each user's state, group and permissions (whole,
// as chips: a group member's are the group's); a new user with permissions and a group (never above the signed-in
// user's own); per user: change permissions and group, set a password, reset the access key (the new key shown
// once), deactivate or activate. The dashboard enforces every rule (no grant above one's own,
// nothing on oneself but names, the operator's system user read-only); the page only presents them.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, errorAt } from '../api-client.ts';
import { LatestAnswer } from '../latest-answer.ts';
import { OneTimeSecret } from '../parts/one-time-secret.tsx';
import { PermissionGrid, type PermissionChoice } from '../parts/permission-grid.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { NO_IDENTITY, UserIdentityFields, type UserIdentity } from '../parts/user-identity-fields.tsx';
import { PermissionChips } from '../parts/permission-chips.tsx';
import { GroupSelect, type GroupView } from '../parts/group-select.tsx';
import { PasswordForm } from '../parts/password-form.tsx';
import { access, mayWrite, type SessionView } from '../session.ts';

interface UserView {
  id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  active: boolean;
  system: boolean;
  user_permissions: PermissionChoice;
  user_group_id: string;
}

const nameOf = (u: UserView): string => [u.first_name, u.last_name].filter((n) => n !== '').join(' ') || u.email_address;

export function UsersPage({ session }: { session: SessionView }) {
  const [users, setUsers] = useState<UserView[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [secret, setSecret] = useState<{ title: string; value: string } | undefined>();
  const [message, setMessage] = useState('');
  const [actionError, setActionError] = useState<unknown>();
  const [editing, setEditing] = useState<UserView | undefined>();
  const [editPermissions, setEditPermissions] = useState<PermissionChoice>({});
  const [identity, setIdentity] = useState<UserIdentity>(NO_IDENTITY);
  const [permissions, setPermissions] = useState<PermissionChoice>({});
  const [formError, setFormError] = useState<unknown>();
  const [groups, setGroups] = useState<GroupView[]>([]);
  const [newGroup, setNewGroup] = useState('');
  const [editGroup, setEditGroup] = useState('');
  const [passwordOf, setPasswordOf] = useState<UserView | undefined>();

  // A write reloads the list: only the latest load's answer is shown (latest-answer.ts).
  const latest = useRef(new LatestAnswer()).current;
  const load = (): void => {
    latest.ask(
      call<{ users: UserView[] }>('GET', '/api/users?p=-2'),
      ({ data }) => setUsers(data.users),
      (e: unknown) => setError(e),
    );
  };
  useEffect(load, []);
  useEffect(() => {
    if (access(session, 'user_groups') === 'deny') return;
    call<{ groups: GroupView[] }>('GET', '/api/usergroups?p=-2').then(
      ({ data }) => setGroups(data.groups),
      () => setGroups([]),
    );
  }, []);
  const groupOf = (u: UserView): GroupView | undefined => groups.find((g) => g.id === u.user_group_id);

  if (error) return <Problem error={error} what="list the users" />;
  const writable = mayWrite(session, 'users');

  const act = async (what: () => Promise<string | undefined>): Promise<void> => {
    setActionError(undefined);
    try {
      const done = await what();
      if (done) setMessage(done);
      load();
    } catch (e) {
      setActionError(e);
    }
  };
  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    try {
      const { data } = await call<{ Meta: UserView & { access_key: string } }>('POST', '/api/users', {
        ...identity,
        user_permissions: permissions,
        user_group_id: newGroup,
      });
      setSecret({ title: `Access key of ${nameOf(data.Meta)}`, value: data.Meta.access_key });
      setMessage(`User ${data.Meta.email_address} created.`);
      setIdentity(NO_IDENTITY);
      setPermissions({});
      setNewGroup('');
      load();
    } catch (e) {
      setFormError(e);
    }
  };
  const savePermissions = (event: Event): void => {
    event.preventDefault();
    const user = editing!;
    void act(async () => {
      const changes = { user_permissions: editPermissions, ...(editGroup !== user.user_group_id ? { user_group_id: editGroup } : {}) };
      await call('PUT', `/api/users/${encodeURIComponent(user.id)}`, changes);
      setEditing(undefined);
      return `Permissions of ${nameOf(user)} saved.`;
    });
  };

  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <p class="count" role="status">
        {users === undefined ? 'Loading users…' : message || `${users.length} ${users.length === 1 ? 'user' : 'users'} in this organisation`}
      </p>
      <FormAlert error={actionError} />
      <table class="list" aria-labelledby="users-title">
        <colgroup>
          <col style={{ width: '18%' }} />
          <col style={{ width: '18%' }} />
          <col style={{ width: '8%' }} />
          <col style={{ width: '30%' }} />
          <col style={{ width: '26%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">State</th>
            <th scope="col">Permissions</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {(users ?? []).map((u) => {
            const self = u.id === session.user.id;
            const locked = !writable || u.system;
            return (
              <tr key={u.id}>
                <th scope="row" class="whole">
                  {nameOf(u)}
                  {u.system && <span class="badge">operator</span>}
                  {self && <span class="badge">you</span>}
                </th>
                <td>{u.email_address}</td>
                <td>{u.active ? 'Active' : 'Inactive'}</td>
                <td class="whole">
                  {u.user_group_id !== '' && <p class="group-of">Group: {groupOf(u)?.name ?? u.user_group_id}</p>}
                  <PermissionChips permissions={groupOf(u)?.user_permissions ?? u.user_permissions} />
                </td>
                <td>
                  <div class="row-actions">
                    {!locked && !self && (
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Permissions of ${nameOf(u)}`}
                        onClick={() => {
                          setPasswordOf(undefined);
                          setEditing(u);
                          setEditPermissions(u.user_permissions);
                          setEditGroup(u.user_group_id);
                        }}
                      >
                        Permissions
                      </button>
                    )}
                    {!locked && !self && (
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Set the password of ${nameOf(u)}`}
                        onClick={() => {
                          setEditing(undefined);
                          setPasswordOf(u);
                        }}
                      >
                        Set password
                      </button>
                    )}
                    {!locked && (
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Reset the key of ${nameOf(u)}`}
                        onClick={() =>
                          void act(async () => {
                            const { data } = await call<{ Meta: { access_key: string } }>('POST', `/api/users/${encodeURIComponent(u.id)}/actions/key/reset`);
                            setSecret({ title: `New access key of ${nameOf(u)}`, value: data.Meta.access_key });
                            return `The key of ${nameOf(u)} was reset; the old one no longer works.`;
                          })
                        }
                      >
                        Reset key
                      </button>
                    )}
                    {!locked && !self && (
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`${u.active ? 'Deactivate' : 'Activate'} ${nameOf(u)}`}
                        onClick={() =>
                          void act(async () => {
                            await call('PUT', `/api/users/${encodeURIComponent(u.id)}`, { active: !u.active });
                            return `${nameOf(u)} ${u.active ? 'deactivated: their sessions have ended' : 'activated'}.`;
                          })
                        }
                      >
                        {u.active ? 'Deactivate' : 'Activate'}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {editing && (
        <form class="card" onSubmit={savePermissions} aria-labelledby="edit-user-title">
          <h2 id="edit-user-title">Permissions of {nameOf(editing)}</h2>
          <PermissionGrid
            id="edit-permissions"
            legend={`What ${nameOf(editing)} may do`}
            value={editPermissions}
            session={session}
            onChange={setEditPermissions}
          />
          {groups.length > 0 && <GroupSelect id="edit-group" groups={groups} value={editGroup} onChange={setEditGroup} />}
          <p class="field-error" role="alert">
            {errorAt(actionError, 'user_group_id') ?? errorAt(actionError, 'user_permissions') ?? ''}
          </p>
          <div class="actions">
            <button type="submit">Save permissions</button>
            <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {passwordOf && (
        <PasswordForm
          key={passwordOf.id}
          userId={passwordOf.id}
          of={{
            name: nameOf(passwordOf),
            onDone: (done) => {
              setPasswordOf(undefined);
              setMessage(done);
            },
            onCancel: () => setPasswordOf(undefined),
          }}
        />
      )}
      {writable && (
        <form class="card" onSubmit={(e) => void create(e)} noValidate aria-labelledby="new-user-title">
          <h2 id="new-user-title">New user</h2>
          <UserIdentityFields prefix="user" value={identity} error={formError} onChange={setIdentity} />
          <PermissionGrid id="new-permissions" legend="Permissions of the new user" value={permissions} session={session} onChange={setPermissions} />
          {groups.length > 0 && <GroupSelect id="new-group" groups={groups} value={newGroup} onChange={setNewGroup} />}
          <p class="field-error" role="alert">
            {errorAt(formError, 'user_group_id') ?? ''}
          </p>
          <p class="field-error" role="alert">
            {errorAt(formError, 'user_permissions') ?? ''}
          </p>
          <FormAlert error={formError} />
          <div class="actions">
            <button type="submit">Create user</button>
          </div>
        </form>
      )}
      {secret && <OneTimeSecret title={secret.title} value={secret.value} onClose={() => setSecret(undefined)} />}
    </section>
  );
}
