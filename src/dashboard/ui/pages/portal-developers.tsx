// Portal developers (GET /api/portal/developers?p=&q=): a page at a time, searched by e-mail; each developer
// deactivated (they can no longer sign in to the portal; their keys keep working until revoked) or activated again
// (PUT with inactive), and their keys listed by storage id with the policies each applies, each revocable after a
// confirmation (DELETE /api/portal/developers/{id}/keys/{keyId}: gateways refuse it from their next sync). A
// developer who signed up under require_developer_approval shows as awaiting approval, with Approve (PUT
// /api/portal/developers/approve/{id}: they can sign in, and are e-mailed when the dashboard has SMTP).
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { ConfirmDialog } from '../parts/confirm-dialog.tsx';
import { Pager } from '../parts/pager.tsx';
import { Problem } from '../parts/problem.tsx';

interface Developer {
  id: string;
  email: string;
  date_created: string;
  inactive: boolean;
  awaiting_approval?: boolean;
  fields: Record<string, string>;
  keys: Record<string, string[]>;
}

interface PolicyChoice {
  id: string;
  name: string;
}

export function PortalDevelopersPage({ writable }: { writable: boolean }) {
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // The answer with the page and search it answers: the count line describes what the list shows.
  const [answer, setAnswer] = useState<{ Data: Developer[]; Pages: number; page: number; search: string } | undefined>();
  const [policies, setPolicies] = useState<PolicyChoice[]>([]);
  const [error, setError] = useState<unknown>();
  const [actionError, setActionError] = useState<string | undefined>();
  const [opened, setOpened] = useState<string | undefined>();
  const [revoking, setRevoking] = useState<{ developer: Developer; keyId: string } | undefined>();
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    // An answer for a search or page no longer asked for is dropped.
    let current = true;
    const q = search === '' ? '' : `&q=${encodeURIComponent(search)}`;
    call<{ Data: Developer[]; Pages: number }>('GET', `/api/portal/developers?p=${page}${q}`).then(
      ({ data }) => current && setAnswer({ ...data, page, search }),
      (e: unknown) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [page, search, reloads]);
  useEffect(() => {
    call<{ Data: PolicyChoice[] }>('GET', '/api/portal/policies?p=-2').then(
      ({ data }) => setPolicies(data.Data),
      () => setPolicies([]),
    );
  }, []);

  if (error) return <Problem error={error} what="list the portal's developers" />;
  const policyNames = (ids: string[]): string => ids.map((id) => policies.find((p) => p.id === id)?.name ?? id).join(', ') || 'none';
  const act = async (work: () => Promise<unknown>): Promise<boolean> => {
    setActionError(undefined);
    try {
      await work();
      setReloads((n) => n + 1);
      return true;
    } catch (e) {
      setActionError(e instanceof Error ? e.message : String(e));
      return false;
    }
  };
  const setInactive = (developer: Developer, inactive: boolean): Promise<boolean> =>
    act(() => call('PUT', `/api/portal/developers/${encodeURIComponent(developer.id)}`, { email: developer.email, inactive, fields: developer.fields }));
  const approve = (developer: Developer): Promise<boolean> => act(() => call('PUT', `/api/portal/developers/approve/${encodeURIComponent(developer.id)}`));
  const pages = Math.max(answer?.Pages ?? 1, 1);
  const developers = answer?.Data ?? [];

  return (
    <section aria-labelledby="developers-title">
      <h1 id="developers-title">Developers</h1>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setSearch(typed.trim());
        }}
      >
        <div class="field">
          <label for="developer-search">Find a developer by e-mail</label>
          <input id="developer-search" type="search" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
        </div>
        <button type="submit" class="secondary">
          Search
        </button>
      </form>
      <p class="count" role="status" aria-live="polite">
        {answer === undefined
          ? 'Loading developers…'
          : `${developers.length} ${developers.length === 1 ? 'developer' : 'developers'}${answer.search === '' ? '' : ' found'} on page ${answer.page} of ${pages}`}
      </p>
      {actionError !== undefined && revoking === undefined && (
        <p class="problem" role="alert">
          {actionError}
        </p>
      )}
      <table class="list" aria-label="Developers" aria-busy={answer === undefined}>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Registered</th>
            <th scope="col">Status</th>
            <th scope="col">Keys</th>
            {writable && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {developers.map((developer) => {
            const keyIds = Object.keys(developer.keys);
            const open = opened === developer.id;
            return [
              <tr key={developer.id}>
                <td>{developer.email}</td>
                <td>{developer.date_created.slice(0, 16).replace('T', ' ')} UTC</td>
                <td>{developer.awaiting_approval ? 'Awaiting approval' : developer.inactive ? 'Inactive' : 'Active'}</td>
                <td class="whole">
                  <button
                    type="button"
                    class="secondary"
                    aria-expanded={open}
                    aria-controls={`developer-keys-${developer.id}`}
                    aria-label={`${open ? 'Hide' : 'Show'} the keys of ${developer.email} (${keyIds.length})`}
                    onClick={() => setOpened(open ? undefined : developer.id)}
                  >
                    {open ? 'Hide' : 'Show'} keys ({keyIds.length})
                  </button>
                </td>
                {writable && (
                  <td class="whole">
                    {developer.awaiting_approval ? (
                      <button type="button" aria-label={`Approve ${developer.email}`} onClick={() => void approve(developer)}>
                        Approve
                      </button>
                    ) : developer.inactive ? (
                      <button type="button" class="secondary" aria-label={`Activate ${developer.email}`} onClick={() => void setInactive(developer, false)}>
                        Activate
                      </button>
                    ) : (
                      <button type="button" class="secondary" aria-label={`Deactivate ${developer.email}`} onClick={() => void setInactive(developer, true)}>
                        Deactivate
                      </button>
                    )}
                  </td>
                )}
              </tr>,
              open && (
                <tr key={`${developer.id}-keys`} id={`developer-keys-${developer.id}`}>
                  <td class="whole" colSpan={writable ? 5 : 4}>
                    {keyIds.length === 0 ? (
                      <p>No keys.</p>
                    ) : (
                      <ul aria-label={`Keys of ${developer.email}`}>
                        {keyIds.map((keyId) => (
                          <li key={keyId}>
                            <code title={keyId}>{keyId.slice(0, 16)}…</code> for {policyNames(developer.keys[keyId] ?? [])}{' '}
                            {writable && (
                              <button
                                type="button"
                                class="secondary"
                                aria-label={`Revoke key ${keyId.slice(0, 16)} of ${developer.email}`}
                                onClick={() => setRevoking({ developer, keyId })}
                              >
                                Revoke
                              </button>
                            )}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ),
            ];
          })}
        </tbody>
      </table>
      <Pager of="developers" page={answer?.page ?? page} pages={pages} onPage={setPage} />
      {revoking !== undefined && (
        <ConfirmDialog
          title={`Revoke this key of ${revoking.developer.email}?`}
          confirmLabel="Revoke"
          error={actionError}
          onConfirm={() =>
            void act(() =>
              call('DELETE', `/api/portal/developers/${encodeURIComponent(revoking.developer.id)}/keys/${encodeURIComponent(revoking.keyId)}`),
            ).then((done) => {
              if (done) setRevoking(undefined);
            })
          }
          onCancel={() => {
            setRevoking(undefined);
            setActionError(undefined);
          }}
        >
          <p>The key is deleted: gateways refuse it from their next sync with the dashboard. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
