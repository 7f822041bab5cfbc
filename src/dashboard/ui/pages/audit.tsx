// The audit log (permission `audit_logs`): who changed which API, policy, key, user or user group, when, and from
// where (address, access key or web session), newest first, a page at a time; filtered by user, object type and
// object id (GET /api/audit does the filtering and paging).
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { LatestAnswer } from '../latest-answer.ts';
import { Problem } from '../parts/problem.tsx';
import { access, type SessionView } from '../session.ts';
import { Pager } from '../parts/pager.tsx';

interface Entry {
  id: string;
  at: string;
  user_id: string;
  user_email: string;
  action: string;
  object_type: string;
  object_id: string;
  client_ip: string;
  via: string;
}

const OBJECT_TYPES: { value: string; label: string }[] = [
  { value: 'api', label: 'API' },
  { value: 'policy', label: 'Policy' },
  { value: 'key', label: 'Key' },
  { value: 'user', label: 'User' },
  { value: 'user_group', label: 'User group' },
  { value: 'certificate', label: 'Certificate' },
  { value: 'developer', label: 'Portal developer' },
  { value: 'portal', label: 'Portal' },
];

export function AuditPage({ session }: { session: SessionView }) {
  const [entries, setEntries] = useState<Entry[] | undefined>();
  const [pages, setPages] = useState(1);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>();
  const [users, setUsers] = useState<{ id: string; email_address: string }[]>([]);
  const [userId, setUserId] = useState('');
  const [objectType, setObjectType] = useState('');
  const [objectId, setObjectId] = useState('');
  const latest = useRef(new LatestAnswer()).current;

  useEffect(() => {
    if (access(session, 'users') === 'deny') return;
    call<{ users: { id: string; email_address: string }[] }>('GET', '/api/users?p=-2').then(
      ({ data }) => setUsers(data.users),
      () => setUsers([]),
    );
  }, []);
  useEffect(() => {
    const query = new URLSearchParams({ p: String(page) });
    if (userId) query.set('user_id', userId);
    if (objectType) query.set('object_type', objectType);
    if (objectId.trim()) query.set('object_id', objectId.trim());
    setEntries(undefined);
    latest.ask(
      call<{ entries: Entry[]; pages: number }>('GET', `/api/audit?${query.toString()}`),
      ({ data }) => {
        setEntries(data.entries);
        setPages(Math.max(1, data.pages));
      },
      (e: unknown) => setError(e),
    );
  }, [page, userId, objectType, objectId]);

  if (error) return <Problem error={error} what="read the audit log" />;
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => (set(value), setPage(1));

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <div class="filters">
        {users.length > 0 && (
          <div class="field inline">
            <label for="audit-user">User</label>
            <select id="audit-user" value={userId} onChange={(e) => filter(setUserId)(e.currentTarget.value)}>
              <option value="">Everyone</option>
              {users.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.email_address}
                </option>
              ))}
            </select>
          </div>
        )}
        <div class="field inline">
          <label for="audit-type">Object type</label>
          <select id="audit-type" value={objectType} onChange={(e) => filter(setObjectType)(e.currentTarget.value)}>
            <option value="">Any</option>
            {OBJECT_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="audit-object">Object id</label>
          <input id="audit-object" value={objectId} onChange={(e) => filter(setObjectId)(e.currentTarget.value)} />
        </div>
      </div>
      <p class="count" role="status">
        {entries === undefined ? 'Loading the audit log…' : entries.length === 0 ? 'No changes recorded.' : `Page ${page} of ${pages}`}
      </p>
      <table class="list" aria-labelledby="audit-title">
        <colgroup>
          <col style={{ width: '18%' }} />
          <col style={{ width: '22%' }} />
          <col style={{ width: '12%' }} />
          <col style={{ width: '30%' }} />
          <col style={{ width: '18%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Object</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>
          {(entries ?? []).map((e) => (
            <tr key={e.id}>
              <td class="whole">
                <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time>
              </td>
              <td class="whole">{e.user_email}</td>
              <td class="whole">{e.action}</td>
              <td class="whole">
                {OBJECT_TYPES.find((t) => t.value === e.object_type)?.label ?? e.object_type} <code>{e.object_id}</code>
              </td>
              <td class="whole">
                {e.client_ip} ({e.via})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager of="the audit log" page={page} pages={pages} onPage={setPage} />
    </section>
  );
}
