// The organisations (administrators only: /admin/organisations through the administrator session): the list with
// each one's name, id, cname and whether the operator manages it; a new organisation (owner name, optional cname,
// operator-managed). Editing, deleting and an organisation's users are on its own page (admin-organisation.tsx).
import { useEffect, useState } from 'preact/hooks';
import { call, errorAt } from '../api-client.ts';
import { Field } from '../parts/field.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { href, navigate } from '../router.ts';

export interface OrgView {
  id: string;
  owner_name: string;
  cname: string;
  operator_managed: boolean;
  created_at: string;
}

export function AdminOrganisationsPage() {
  const [orgs, setOrgs] = useState<OrgView[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [ownerName, setOwnerName] = useState('');
  const [cname, setCname] = useState('');
  const [managed, setManaged] = useState(false);
  const [formError, setFormError] = useState<unknown>();

  useEffect(() => {
    call<{ organisations: OrgView[] }>('GET', '/admin/organisations?p=-2').then(
      ({ data }) => setOrgs(data.organisations),
      (e: unknown) => setError(e),
    );
  }, []);

  if (error) return <Problem error={error} what="list the organisations" />;

  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    try {
      const { data } = await call<{ Meta: string }>('POST', '/admin/organisations', { owner_name: ownerName, cname, operator_managed: managed });
      navigate('admin', 'organisations', data.Meta);
    } catch (e) {
      setFormError(e);
    }
  };

  return (
    <section aria-labelledby="orgs-title">
      <h1 id="orgs-title">Organisations</h1>
      <p class="count" role="status">
        {orgs === undefined ? 'Loading organisations…' : `${orgs.length} ${orgs.length === 1 ? 'organisation' : 'organisations'}`}
      </p>
      <table class="list" aria-labelledby="orgs-title">
        <colgroup>
          <col style={{ width: '30%' }} />
          <col style={{ width: '30%' }} />
          <col style={{ width: '20%' }} />
          <col style={{ width: '20%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Owner name</th>
            <th scope="col">Id</th>
            <th scope="col">CNAME</th>
            <th scope="col">Managed by</th>
          </tr>
        </thead>
        <tbody>
          {(orgs ?? []).map((org) => (
            <tr key={org.id}>
              <th scope="row">
                <a href={href('admin', 'organisations', org.id)}>{org.owner_name}</a>
              </th>
              <td>
                <code>{org.id}</code>
              </td>
              <td>{org.cname || '–'}</td>
              <td>{org.operator_managed ? 'the operator' : 'people'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="card" onSubmit={(e) => void create(e)} noValidate aria-labelledby="new-org-title">
        <h2 id="new-org-title">New organisation</h2>
        <OrgFields
          prefix="new-org"
          ownerName={ownerName}
          cname={cname}
          managed={managed}
          error={formError}
          onOwnerName={setOwnerName}
          onCname={setCname}
          onManaged={setManaged}
        />
        <FormAlert error={formError} />
        <div class="actions">
          <button type="submit">Create organisation</button>
        </div>
      </form>
    </section>
  );
}

export interface OrgFieldsProps {
  prefix: string;
  ownerName: string;
  cname: string;
  managed: boolean;
  error: unknown;
  onOwnerName: (value: string) => void;
  onCname: (value: string) => void;
  onManaged: (value: boolean) => void;
}

/** The fields an organisation has, each with the dashboard's refusal at it. */
export function OrgFields({ prefix, ownerName, cname, managed, error, onOwnerName, onCname, onManaged }: OrgFieldsProps) {
  return (
    <>
      <Field id={`${prefix}-owner`} label="Owner name" error={errorAt(error, 'owner_name')}>
        {(d, invalid) => (
          <input id={`${prefix}-owner`} value={ownerName} aria-describedby={d} aria-invalid={invalid} onInput={(e) => onOwnerName(e.currentTarget.value)} />
        )}
      </Field>
      <Field id={`${prefix}-cname`} label="CNAME" hint="Optional: the host name of its developer portal; unique." error={errorAt(error, 'cname')}>
        {(d, invalid) => (
          <input id={`${prefix}-cname`} value={cname} aria-describedby={d} aria-invalid={invalid} onInput={(e) => onCname(e.currentTarget.value)} />
        )}
      </Field>
      <div class="field">
        <label>
          <input type="checkbox" checked={managed} onChange={(e) => onManaged(e.currentTarget.checked)} /> Managed by the operator (only its system user writes
          APIs and policies)
        </label>
      </div>
    </>
  );
}
