// The organisation's keys, a page at a time from the dashboard (GET /api/keys?mode=detailed, paged and searched
// there, so 10 000 keys cost one page): alias, storage id (the key's hash when hashed), policies by name, expiry;
// a search by alias start, key, hash or storage id start; each alias links to the key's page (pages/key.tsx);
// revoke (delete) after a confirmation, after which
// gateways refuse the key. Last use is not recorded by the dashboard, so there is no such column.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { LatestAnswer } from '../latest-answer.ts';
import { href } from '../router.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { Problem } from './problem.tsx';
import { Pager } from './pager.tsx';

interface KeySummary {
  storage_id: string;
  hashed: boolean;
  alias: string;
  apply_policies: string[];
  expires: number;
}

export interface KeyListProps {
  policyNames: Map<string, string>;
  writable: boolean;
  /** Changes when a key was created elsewhere on the page: the list loads again. */
  version: number;
}

const expiryText = (expires: number): string => (expires > 0 ? new Date(expires * 1000).toISOString() : 'Never');

export function KeyList({ policyNames, writable, version }: KeyListProps) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  // The answer with the page and search it answers: the status and pager describe what the table shows.
  const [answer, setAnswer] = useState<{ keys: KeySummary[]; pages: number; total: number; page: number; search: string } | undefined>();
  const [error, setError] = useState<unknown>();
  const [revoking, setRevoking] = useState<KeySummary | undefined>();
  const [revokeError, setRevokeError] = useState<string | undefined>();
  const [reloads, setReloads] = useState(0);
  const latest = useRef(new LatestAnswer()).current;

  useEffect(() => {
    const q = search === '' ? '' : `&q=${encodeURIComponent(search)}`;
    latest.ask(
      call<{ keys: KeySummary[]; pages: number; total: number }>('GET', `/api/keys?mode=detailed&p=${page}${q}`),
      ({ data }) => setAnswer({ ...data, page, search }),
      (e: unknown) => setError(e),
    );
  }, [page, search, version, reloads]);

  if (error) return <Problem error={error} what="list the keys" />;
  const revoke = async (key: KeySummary): Promise<void> => {
    try {
      await call('DELETE', `/api/keys/${encodeURIComponent(key.storage_id)}?hashed=true`);
      setRevoking(undefined);
      setReloads(reloads + 1);
    } catch (e) {
      setRevokeError(e instanceof Error ? e.message : String(e));
    }
  };
  const pages = Math.max(answer?.pages ?? 1, 1);
  return (
    <>
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
          <label for="key-search">Find a key</label>
          <input id="key-search" value={typed} placeholder="Alias, key, hash or id" onInput={(e) => setTyped(e.currentTarget.value)} />
        </div>
        <button type="submit" class="secondary">
          Search
        </button>
      </form>
      <p class="count" role="status" aria-live="polite">
        {answer === undefined
          ? 'Loading keys…'
          : `${answer.total} ${answer.total === 1 ? 'key' : 'keys'}${answer.search === '' ? '' : answer.search.length <= 32 ? ` found for "${answer.search}"` : ' found'}`}
      </p>
      <table class="list" aria-label="Keys" aria-busy={answer === undefined}>
        <thead>
          <tr>
            <th scope="col">Alias</th>
            <th scope="col">Key id</th>
            <th scope="col">Policies</th>
            <th scope="col">Expires</th>
            {writable && <th scope="col">Revoke</th>}
          </tr>
        </thead>
        <tbody>
          {(answer?.keys ?? []).map((k) => (
            <tr key={k.storage_id}>
              <td>
                <a href={href('keys', k.storage_id)}>{k.alias || 'Key without alias'}</a>
              </td>
              <td class="truncate" title={k.storage_id}>
                <code>{k.storage_id}</code>
                {k.hashed && <span class="badge">hash</span>}
              </td>
              <td>{k.apply_policies.map((id) => policyNames.get(id) ?? id).join(', ') || 'none'}</td>
              <td>{expiryText(k.expires)}</td>
              {writable && (
                <td>
                  <button type="button" class="secondary" aria-label={`Revoke key ${k.alias || k.storage_id}`} onClick={() => setRevoking(k)}>
                    Revoke
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {/* The page the rows shown are of (the answer's), not the one asked for. */}
      <Pager of="keys" page={answer?.page ?? page} pages={pages} onPage={setPage} />
      {revoking !== undefined && (
        <ConfirmDialog
          title={`Revoke the key ${revoking.alias || revoking.storage_id}?`}
          confirmLabel="Revoke"
          error={revokeError}
          onConfirm={() => void revoke(revoking)}
          onCancel={() => {
            setRevoking(undefined);
            setRevokeError(undefined);
          }}
        >
          <p>The key is deleted: gateways refuse it from their next sync with the dashboard. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
