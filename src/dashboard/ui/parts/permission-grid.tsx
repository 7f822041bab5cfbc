// The permissions of a user as a group of labelled choices, one per resource (No access, Read, Read and write).
// A level above the signed-in user's own is offered disabled: the dashboard would refuse it (no way up). Without a
// session (the administrator's pages) every level is offered.
import { access, ACCESS_LABELS, RESOURCES, type Access, type Resource, type SessionView } from '../session.ts';

const LEVELS: Access[] = ['deny', 'read', 'write'];
const RANK: Record<Access, number> = { deny: 0, read: 1, write: 2 };

export type PermissionChoice = Partial<Record<Resource, Access>>;

export function PermissionGrid({
  id,
  legend,
  value,
  session,
  disabled,
  onChange,
}: {
  id: string;
  legend: string;
  value: PermissionChoice;
  session?: SessionView | undefined;
  disabled?: boolean;
  onChange: (next: PermissionChoice) => void;
}) {
  return (
    <fieldset class="permission-grid" disabled={disabled}>
      <legend>{legend}</legend>
      {RESOURCES.map(({ resource, label }) => (
        <div class="field inline" key={resource}>
          <label for={`${id}-${resource}`}>{label}</label>
          <select
            id={`${id}-${resource}`}
            value={value[resource] ?? 'deny'}
            onChange={(e) => onChange({ ...value, [resource]: e.currentTarget.value as Access })}
          >
            {LEVELS.map((level) => (
              <option key={level} value={level} disabled={session !== undefined && RANK[level] > RANK[access(session, resource)]}>
                {ACCESS_LABELS[level]}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  );
}
