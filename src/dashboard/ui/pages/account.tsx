// The signed-in user's own account: who they are, their organisation, and what each permission lets them do here
// (the same table the dashboard enforces), and their password for the e-mail sign-in. Users and their permissions are managed on the Users page.
import { PasswordForm } from '../parts/password-form.tsx';
import { access, ACCESS_LABELS, operatorManaged, RESOURCES, type SessionView } from '../session.ts';

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
                {ACCESS_LABELS[access(session, resource)]}
                {operatorManaged(session) && (resource === 'apis' || resource === 'policies') && access(session, resource) === 'write'
                  ? ' (read-only here: the operator writes them)'
                  : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="field-hint">Users and their permissions are managed on the Users page (permission Users), or by an administrator through the admin API.</p>
      <PasswordForm userId={user.id} />
    </section>
  );
}
