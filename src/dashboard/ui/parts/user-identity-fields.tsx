// Who a new user is: e-mail address (required, unique) and first and last name, each with the dashboard's refusal
// at it. Shared by the Users page (a user's own organisation) and the administration (any organisation).
import { errorAt } from '../api-client.ts';
import { Field } from './field.tsx';

export interface UserIdentity {
  email_address: string;
  first_name: string;
  last_name: string;
}

export const NO_IDENTITY: UserIdentity = { email_address: '', first_name: '', last_name: '' };

export function UserIdentityFields({
  prefix,
  value,
  error,
  onChange,
}: {
  prefix: string;
  value: UserIdentity;
  error: unknown;
  onChange: (next: UserIdentity) => void;
}) {
  const set = (field: keyof UserIdentity) => (e: { currentTarget: HTMLInputElement }) => onChange({ ...value, [field]: e.currentTarget.value });
  return (
    <>
      <Field id={`${prefix}-email`} label="E-mail address" error={errorAt(error, 'email_address')}>
        {(d, invalid) => (
          <input id={`${prefix}-email`} type="email" value={value.email_address} aria-describedby={d} aria-invalid={invalid} onInput={set('email_address')} />
        )}
      </Field>
      <div class="pair">
        <Field id={`${prefix}-first-name`} label="First name" error={errorAt(error, 'first_name')}>
          {(d, invalid) => (
            <input id={`${prefix}-first-name`} value={value.first_name} aria-describedby={d} aria-invalid={invalid} onInput={set('first_name')} />
          )}
        </Field>
        <Field id={`${prefix}-last-name`} label="Last name" error={errorAt(error, 'last_name')}>
          {(d, invalid) => <input id={`${prefix}-last-name`} value={value.last_name} aria-describedby={d} aria-invalid={invalid} onInput={set('last_name')} />}
        </Field>
      </div>
    </>
  );
}
