// The signed-in user as /session describes them (and an administrator as /session/admin does), and what they may do: permissions per resource, and the
// operator_managed rule (in such an organisation only the operator's system user writes APIs and policies), the
// same rules the server enforces; the UI uses them only to present pages read-only, never as the check itself.
export type Access = 'read' | 'write' | 'deny';
export type Resource = 'apis' | 'policies' | 'keys' | 'certificates' | 'portal' | 'analytics' | 'users' | 'user_groups' | 'audit_logs';

/** Every resource a permission is given for, as the pages name it. */
export const RESOURCES: { resource: Resource; label: string }[] = [
  { resource: 'apis', label: 'APIs' },
  { resource: 'policies', label: 'Policies' },
  { resource: 'keys', label: 'Keys' },
  { resource: 'certificates', label: 'Certificates' },
  { resource: 'portal', label: 'Portal' },
  { resource: 'analytics', label: 'Analytics' },
  { resource: 'users', label: 'Users' },
  { resource: 'user_groups', label: 'User groups' },
  { resource: 'audit_logs', label: 'Audit log' },
];

export const ACCESS_LABELS: Record<Access, string> = { read: 'Read', write: 'Read and write', deny: 'No access' };

/** A user's permissions in words, one per granted resource (`APIs: read and write`); empty when all are denied. */
export function grantedList(permissions: Partial<Record<Resource, Access>>): string[] {
  return RESOURCES.filter(({ resource }) => (permissions[resource] ?? 'deny') !== 'deny').map(
    ({ resource, label }) => `${label}: ${ACCESS_LABELS[permissions[resource]!].toLowerCase()}`,
  );
}

/** A user's permissions in words (`APIs: read and write, Keys: read`), `none` when every one is denied. */
export function grantedSummary(permissions: Partial<Record<Resource, Access>>): string {
  return grantedList(permissions).join(', ') || 'none';
}

export interface SessionView {
  user: { id: string; email_address: string; first_name: string; last_name: string; system: boolean; user_permissions: Partial<Record<Resource, Access>> };
  /** portal_url: the organisation's developer portal as people reach it (its own domain when it has one). */
  org: { id: string; owner_name: string; operator_managed: boolean; allow_hand_edits: boolean; portal_url: string };
  csrf_token: string;
  expires_at: string;
}

/** The administrator's session as /session/admin describes it (the secret itself never reaches the page). */
export interface AdminView {
  admin: true;
  csrf_token: string;
  expires_at: string;
}

export function access(session: SessionView, resource: Resource): Access {
  return session.user.user_permissions[resource] ?? 'deny';
}

/** Whether the user may write this resource here (APIs and policies of an operator-managed organisation: no). */
export function mayWrite(session: SessionView, resource: Resource): boolean {
  if (access(session, resource) !== 'write') return false;
  return !(session.org.operator_managed && !session.user.system && (resource === 'apis' || resource === 'policies'));
}

/** Whether this user's writes to an object the operator wrote from Kubernetes are refused (409 on the API). */
export function k8sOwnedReadOnly(session: SessionView): boolean {
  return !session.user.system && !session.org.allow_hand_edits;
}

/** The `kubectl edit` command for `<Kind> <namespace>/<name>` (the x-gw-k8s-object header). */
export function kubectlEdit(k8sObject: string): string {
  const [kind = '', object = ''] = k8sObject.split(' ');
  const [namespace = '', name = ''] = object.split('/');
  return `kubectl edit ${kind.toLowerCase()} -n ${namespace} ${name}`;
}

export function operatorManaged(session: SessionView): boolean {
  return session.org.operator_managed && !session.user.system;
}
