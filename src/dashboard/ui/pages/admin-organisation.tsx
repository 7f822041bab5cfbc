// One organisation (administrators only): change its owner name, CNAME and whether the operator manages it; delete
// it with everything it owns (after a confirmation naming it); its users (/admin/users?org_id=) with their state and
// group; a new user with permissions and a group, whose access key is shown once; a user moved into one of the
// organisation's groups (/admin/usergroups?org_id=) or out of it. The dashboard enforces the rules (a group of this
// organisation, '' for none). Everything through the administrator session.
import { useEffect, useState } from 'preact/hooks';
import { call, errorAt } from '../api-client.ts';
import { GroupSelect, type GroupView } from '../parts/group-select.tsx';
import { OneTimeSecret } from '../parts/one-time-secret.tsx';
import { PermissionGrid, type PermissionChoice } from '../parts/permission-grid.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { NO_IDENTITY, UserIdentityFields, type UserIdentity } from '../parts/user-identity-fields.tsx';
import { navigate } from '../router.ts';
import { grantedSummary } from '../session.ts';
import { OrgFields, type OrgView } from './admin-organisations.tsx';

interface OrgUser {
  id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  active: boolean;
  system: boolean;
  user_permissions: PermissionChoice;
  user_group_id: string;
}

const granted = (u: { user_permissions: PermissionChoice }): string => grantedSummary(u.user_permissions);

export function AdminOrganisationPage({ id }: { id: string }) {
  const [org, setOrg] = useState<OrgView | undefined>();
  const [users, setUsers] = useState<OrgUser[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [ownerName, setOwnerName] = useState('');
  const [cname, setCname] = useState('');
  const [managed, setManaged] = useState(false);
  const [saveError, setSaveError] = useState<unknown>();
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [identity, setIdentity] = useState<UserIdentity>(NO_IDENTITY);
  const [permissions, setPermissions] = useState<PermissionChoice>({});
  const [userError, setUserError] = useState<unknown>();
  const [secret, setSecret] = useState<{ title: string; value: string } | undefined>();
  const [groups, setGroups] = useState<GroupView[]>([]);
  const [newGroup, setNewGroup] = useState('');
  const [regrouping, setRegrouping] = useState<OrgUser | undefined>();
  const [regroupTo, setRegroupTo] = useState('');
  const [regroupError, setRegroupError] = useState<unknown>();
  const path = `/admin/organisations/${encodeURIComponent(id)}`;

  const loadUsers = (): void => {
    call<{ users: OrgUser[] }>('GET', `/admin/users?org_id=${encodeURIComponent(id)}&p=-2`).then(
      ({ data }) => setUsers(data.users),
      (e: unknown) => setError(e),
    );
  };
  useEffect(() => {
    call<OrgView>('GET', path).then(
      ({ data }) => {
        setOrg(data);
        setOwnerName(data.owner_name);
        setCname(data.cname);
        setManaged(data.operator_managed);
      },
      (e: unknown) => setError(e),
    );
    loadUsers();
    call<{ groups: GroupView[] }>('GET', `/admin/usergroups?org_id=${encodeURIComponent(id)}&p=-2`).then(
      ({ data }) => setGroups(data.groups),
      (e: unknown) => setError(e),
    );
  }, [id]);

  if (error) return <Problem error={error} what="see this organisation" />;
  if (!org)
    return (
      <p class="count" role="status">
        Loading the organisation…
      </p>
    );

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    setSaveError(undefined);
    try {
      await call('PUT', path, { owner_name: ownerName, cname, operator_managed: managed });
      // Read back: the dashboard stores the domain lowercased.
      const { data } = await call<OrgView>('GET', path);
      setOrg(data);
      setCname(data.cname);
      setMessage('Organisation saved.');
    } catch (e) {
      setSaveError(e);
    }
  };
  const remove = async (): Promise<void> => {
    try {
      await call('DELETE', path);
      navigate('admin', 'organisations');
    } catch (e) {
      setSaveError(e);
    }
  };
  const createUser = async (event: Event): Promise<void> => {
    event.preventDefault();
    setUserError(undefined);
    try {
      const { data } = await call<{ Meta: OrgUser & { access_key: string } }>('POST', '/admin/users', {
        org_id: id,
        ...identity,
        user_permissions: permissions,
        user_group_id: newGroup,
      });
      setSecret({ title: `Access key of ${data.Meta.email_address}`, value: data.Meta.access_key });
      setMessage(`User ${data.Meta.email_address} created.`);
      setIdentity(NO_IDENTITY);
      setPermissions({});
      setNewGroup('');
      loadUsers();
    } catch (e) {
      setUserError(e);
    }
  };

  const groupName = (groupId: string): string => groups.find((g) => g.id === groupId)?.name ?? groupId;
  /** A member holds their group's permissions instead of their own. */
  const groupOf = (u: OrgUser): GroupView | undefined => groups.find((g) => g.id === u.user_group_id);
  const regroup = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (!regrouping) return;
    setRegroupError(undefined);
    try {
      await call('PUT', `/admin/users/${encodeURIComponent(regrouping.id)}`, { user_group_id: regroupTo });
      setMessage(regroupTo === '' ? `${regrouping.email_address} is in no group.` : `${regrouping.email_address} is in ${groupName(regroupTo)}.`);
      setRegrouping(undefined);
      loadUsers();
    } catch (e) {
      setRegroupError(e);
    }
  };

  return (
    <section aria-labelledby="org-title">
      <h1 id="org-title">Organisation: {org.owner_name}</h1>
      <p class="count" role="status">
        {message || (
          <>
            Id <code>{org.id}</code>
          </>
        )}
      </p>
      <form class="card" onSubmit={(e) => void save(e)} noValidate aria-labelledby="org-edit-title">
        <h2 id="org-edit-title">Settings</h2>
        <OrgFields
          prefix="org"
          ownerName={ownerName}
          cname={cname}
          managed={managed}
          error={saveError}
          onOwnerName={setOwnerName}
          onCname={setCname}
          onManaged={setManaged}
        />
        <FormAlert error={saveError} />
        <div class="actions">
          <button type="submit">Save organisation</button>
          {!confirming && (
            <button type="button" class="secondary" onClick={() => setConfirming(true)}>
              Delete organisation
            </button>
          )}
        </div>
        {confirming && (
          <div class="problem" role="alert">
            <p>Delete {org.owner_name} with all its APIs, policies, keys, certificates, users and analytics? This cannot be undone.</p>
            <div class="actions">
              <button type="button" onClick={() => void remove()}>
                Delete {org.owner_name} for good
              </button>
              <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </div>
          </div>
        )}
      </form>
      <table class="list" aria-labelledby="org-users-title">
        <caption id="org-users-title">Users of {org.owner_name}</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Name</th>
            <th scope="col">State</th>
            <th scope="col">Group</th>
            <th scope="col">Permissions</th>
            {groups.length > 0 && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {(users ?? []).map((u) => (
            <tr key={u.id}>
              <th scope="row">
                {u.email_address}
                {u.system && <span class="badge">operator</span>}
              </th>
              <td>{[u.first_name, u.last_name].filter((n) => n !== '').join(' ') || '–'}</td>
              <td>{u.active ? 'Active' : 'Inactive'}</td>
              <td>{u.user_group_id === '' ? '–' : groupName(u.user_group_id)}</td>
              <td title={granted(groupOf(u) ?? u)}>{granted(groupOf(u) ?? u)}</td>
              {groups.length > 0 && (
                <td>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Change the group of ${u.email_address}`}
                    onClick={() => {
                      setRegrouping(u);
                      setRegroupTo(u.user_group_id);
                      setRegroupError(undefined);
                    }}
                  >
                    Change group
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {regrouping && (
        <form class="card" onSubmit={(e) => void regroup(e)} noValidate aria-labelledby="org-regroup-title">
          <h2 id="org-regroup-title">Group of {regrouping.email_address}</h2>
          <GroupSelect id="org-regroup" groups={groups} value={regroupTo} error={errorAt(regroupError, 'user_group_id')} onChange={setRegroupTo} />
          <FormAlert error={regroupError} />
          <div class="actions">
            <button type="submit">Save group</button>
            <button type="button" class="secondary" onClick={() => setRegrouping(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <form class="card" onSubmit={(e) => void createUser(e)} noValidate aria-labelledby="org-new-user-title">
        <h2 id="org-new-user-title">New user of {org.owner_name}</h2>
        <UserIdentityFields prefix="org-user" value={identity} error={userError} onChange={setIdentity} />
        <PermissionGrid id="org-user-permissions" legend="Permissions of the new user" value={permissions} onChange={setPermissions} />
        {groups.length > 0 && (
          <GroupSelect id="org-user-group" groups={groups} value={newGroup} error={errorAt(userError, 'user_group_id')} onChange={setNewGroup} />
        )}
        <FormAlert error={userError} />
        <div class="actions">
          <button type="submit">Create user</button>
        </div>
      </form>
      {secret && <OneTimeSecret title={secret.title} value={secret.value} onClose={() => setSecret(undefined)} />}
    </section>
  );
}
