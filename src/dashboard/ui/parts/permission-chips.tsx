// Permissions shown whole, one chip per granted resource (wrapped over lines, never cut with "…"); "none" when
// every one is denied. Used by the Users and User groups pages.
import { grantedList, type Access, type Resource } from '../session.ts';

export function PermissionChips({ permissions }: { permissions: Partial<Record<Resource, Access>> }) {
  const granted = grantedList(permissions);
  if (granted.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="chips">
      {granted.map((text) => (
        <li key={text}>{text}</li>
      ))}
    </ul>
  );
}
