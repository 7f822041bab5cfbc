// A choice of one of an organisation's user groups for a user, or none (the user keeps their own permissions; a
// member holds the group's). Its refusal (user_group_id) beside it. Shared by the Users page and the administration.
import type { PermissionChoice } from './permission-grid.tsx';
import { Field } from './field.tsx';

export interface GroupView {
  id: string;
  name: string;
  user_permissions: PermissionChoice;
}

export function GroupSelect({
  id,
  groups,
  value,
  error,
  onChange,
}: {
  id: string;
  groups: GroupView[];
  value: string;
  error?: string | undefined;
  onChange: (groupId: string) => void;
}) {
  return (
    <Field id={id} label="User group" error={error}>
      {(describedBy, invalid) => (
        <select id={id} value={value} aria-describedby={describedBy} aria-invalid={invalid} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">No group (own permissions)</option>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
