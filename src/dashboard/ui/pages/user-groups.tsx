// User groups of the organisation (permission `user_groups`, Tyk Dashboard's user groups): the list with each
// group's description and permissions (whole, as chips); a new group with permissions, never above the signed-in
// user's own (the dashboard refuses it: 403 naming the permission, shown here); per group: change its permissions
// or delete it (refused while it has members). Users are put in a group on the Users page.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, errorAt } from '../api-client.ts';
import { LatestAnswer } from '../latest-answer.ts';
import { Field } from '../parts/field.tsx';
import { PermissionChips } from '../parts/permission-chips.tsx';
import { PermissionGrid, type PermissionChoice } from '../parts/permission-grid.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { mayWrite, type SessionView } from '../session.ts';

interface GroupView {
  id: string;
  name: string;
  description: string;
  user_permissions: PermissionChoice;
}

export function UserGroupsPage({ session }: { session: SessionView }) {
  const [groups, setGroups] = useState<GroupView[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [message, setMessage] = useState('');
  const [actionError, setActionError] = useState<unknown>();
  const [editing, setEditing] = useState<GroupView | undefined>();
  const [editPermissions, setEditPermissions] = useState<PermissionChoice>({});
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<PermissionChoice>({});
  const [formError, setFormError] = useState<unknown>();

  // A write reloads the list: only the latest load's answer is shown (latest-answer.ts).
  const latest = useRef(new LatestAnswer()).current;
  const load = (): void => {
    latest.ask(
      call<{ groups: GroupView[] }>('GET', '/api/usergroups?p=-2'),
      ({ data }) => setGroups(data.groups),
      (e: unknown) => setError(e),
    );
  };
  useEffect(load, []);

  if (error) return <Problem error={error} what="list the user groups" />;
  const writable = mayWrite(session, 'user_groups');

  const act = async (what: () => Promise<string>): Promise<void> => {
    setActionError(undefined);
    try {
      setMessage(await what());
      load();
    } catch (e) {
      setActionError(e);
    }
  };
  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    try {
      await call('POST', '/api/usergroups', { name, description, user_permissions: permissions });
      setMessage(`User group ${name} created.`);
      setName('');
      setDescription('');
      setPermissions({});
      load();
    } catch (e) {
      setFormError(e);
    }
  };
  const save = (event: Event): void => {
    event.preventDefault();
    const group = editing!;
    void act(async () => {
      await call('PUT', `/api/usergroups/${encodeURIComponent(group.id)}`, { user_permissions: editPermissions });
      setEditing(undefined);
      return `Permissions of the group ${group.name} saved.`;
    });
  };

  return (
    <section aria-labelledby="groups-title">
      <h1 id="groups-title">User groups</h1>
      <p class="count" role="status">
        {groups === undefined
          ? 'Loading user groups…'
          : message ||
            `${groups.length} ${groups.length === 1 ? 'group' : 'groups'} in this organisation. A member holds the group's permissions instead of their own.`}
      </p>
      <FormAlert error={actionError} />
      <table class="list" aria-labelledby="groups-title">
        <colgroup>
          <col style={{ width: '18%' }} />
          <col style={{ width: '26%' }} />
          <col style={{ width: '36%' }} />
          <col style={{ width: '20%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Permissions</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {(groups ?? []).map((g) => (
            <tr key={g.id}>
              <th scope="row" class="whole">
                {g.name}
              </th>
              <td class="whole">{g.description}</td>
              <td class="whole">
                <PermissionChips permissions={g.user_permissions} />
              </td>
              <td>
                {writable && (
                  <div class="row-actions">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Permissions of the group ${g.name}`}
                      onClick={() => {
                        setEditing(g);
                        setEditPermissions(g.user_permissions);
                      }}
                    >
                      Permissions
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Delete the group ${g.name}`}
                      onClick={() =>
                        void act(async () => {
                          await call('DELETE', `/api/usergroups/${encodeURIComponent(g.id)}`);
                          return `User group ${g.name} deleted.`;
                        })
                      }
                    >
                      Delete
                    </button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && (
        <form class="card" onSubmit={save} aria-labelledby="edit-group-title">
          <h2 id="edit-group-title">Permissions of the group {editing.name}</h2>
          <PermissionGrid
            id="edit-group-permissions"
            legend={`What members of ${editing.name} may do`}
            value={editPermissions}
            session={session}
            onChange={setEditPermissions}
          />
          <div class="actions">
            <button type="submit">Save permissions</button>
            <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {writable && (
        <form class="card" onSubmit={(e) => void create(e)} noValidate aria-labelledby="new-group-title">
          <h2 id="new-group-title">New user group</h2>
          <Field id="group-name" label="Group name" error={errorAt(formError, 'name')}>
            {(d, invalid) => <input id="group-name" value={name} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <Field id="group-description" label="Description" error={errorAt(formError, 'description')}>
            {(d, invalid) => (
              <input
                id="group-description"
                value={description}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => setDescription(e.currentTarget.value)}
              />
            )}
          </Field>
          <PermissionGrid
            id="new-group-permissions"
            legend="Permissions of the group's members"
            value={permissions}
            session={session}
            onChange={setPermissions}
          />
          <p class="field-error" role="alert">
            {errorAt(formError, 'user_permissions') ?? ''}
          </p>
          <FormAlert error={formError} />
          <div class="actions">
            <button type="submit">Create group</button>
          </div>
        </form>
      )}
    </section>
  );
}
