// The signed-in user's own account: who they are, their organisation, and what each permission lets them do here
// (the same table the dashboard enforces). Users and their permissions are managed through the admin API
// (admin-auth), which the web UI does not hold: this page says so instead of offering what would be refused.
import { access, operatorManaged, type Resource, type SessionView } from '../session.ts';

const RESOURCES: { resource: Resource; label: string }[] = [
  { resource: 'apis', label: 'APIs' },
  { resource: 'policies', label: 'Policies' },
  { resource: 'keys', label: 'Keys' },
  { resource: 'certificates', label: 'Certificates' },
  { resource: 'portal', label: 'Portal' },
  { resource: 'analytics', label: 'Analytics' },
];

const MEANING = { read: 'Read', write: 'Read and write', deny: 'No access' } as const;

export function AccountPage({ session }: { session: SessionView }) {
  const { user, org } = session;
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Your account</h1>
      <dl class="facts">
        <dt>User</dt>
        <dd>
          {[user.first_name, user.last_name].filter((n) => n !== '').join(' ') || user.email_address} ({user.email_address}){user.system ? ', system user' : ''}
        </dd>
        <dt>Organisation</dt>
        <dd>
          {org.owner_name} <code>{org.id}</code>
          {org.operator_managed ? ' (managed by the operator)' : ''}
        </dd>
        <dt>Session ends</dt>
        <dd>{new Date(session.expires_at).toLocaleString()}</dd>
      </dl>
      <table class="list narrow" aria-labelledby="permissions-title">
        <caption id="permissions-title">Your permissions</caption>
        <thead>
          <tr>
            <th scope="col">Resource</th>
            <th scope="col">Permission</th>
          </tr>
        </thead>
        <tbody>
          {RESOURCES.map(({ resource, label }) => (
            <tr key={resource}>
              <th scope="row">{label}</th>
              <td>
                {MEANING[access(session, resource)]}
                {operatorManaged(session) && (resource === 'apis' || resource === 'policies') && access(session, resource) === 'write' ? ' (read-only here: the operator writes them)' : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="field-hint">Users and permissions are managed by an administrator through the dashboard's admin API.</p>
    </section>
  );
}
