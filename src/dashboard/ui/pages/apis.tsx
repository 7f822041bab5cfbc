// The organisation's APIs: one request for all of them (GET /api/apis?p=-2), then search (name, listen path, id),
// a label filter (the APIs' tags, the labels a definition carries), with a governance hub a governance label filter
// (the hub names the APIs carrying the chosen label and value) and paging happen in the page, so typing
// filters at once. Only one page of rows is in the document, which keeps 1 000 APIs fast; the table has fixed
// column widths so nothing shifts as rows change.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { AUTH_MODES } from '../definition-form.ts';
import { Problem } from '../parts/problem.tsx';
import { href } from '../router.ts';
import { mayWrite, operatorManaged, type SessionView } from '../session.ts';
import { Pager } from '../parts/pager.tsx';

export const PAGE_SIZE = 50;

interface Listed {
  api_definition: Record<string, unknown> & {
    api_id: string;
    name: string;
    is_oas?: boolean;
    tags?: string[];
    active?: boolean;
    proxy?: { listen_path?: string; target_url?: string };
  };
}

interface Row {
  id: string;
  name: string;
  listenPath: string;
  target: string;
  auth: string;
  tags: string[];
  active: boolean;
  oas: boolean;
  search: string;
}

function rowOf({ api_definition: d }: Listed): Row {
  const auth = AUTH_MODES.find((m) => d[m.flag] === true)?.label ?? 'Open (keyless)';
  const listenPath = d.proxy?.listen_path ?? '';
  return {
    id: d.api_id,
    name: d.name,
    listenPath,
    target: d.proxy?.target_url ?? '',
    auth,
    tags: Array.isArray(d.tags) ? d.tags : [],
    active: d.active !== false,
    oas: d.is_oas === true,
    search: `${d.name}\n${listenPath}\n${d.api_id}`.toLowerCase(),
  };
}

export function ApisPage({ session }: { session: SessionView }) {
  const [rows, setRows] = useState<Row[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [search, setSearch] = useState('');
  const [label, setLabel] = useState('');
  const [page, setPage] = useState(1);

  const [governanceChoices, setGovernanceChoices] = useState<string[]>([]);
  const [governance, setGovernance] = useState('');
  const [governed, setGoverned] = useState<ReadonlySet<string> | undefined>();

  useEffect(() => {
    call<{ apis: Listed[] }>('GET', '/api/apis?p=-2').then(
      ({ data }) => setRows(data.apis.map(rowOf)),
      (e: unknown) => setError(e),
    );
    // Without a governance hub (available: false, no labels) there is no governance filter.
    call<{ labels: { name: string; values: string[] }[] }>('GET', '/api/governance/labels').then(
      ({ data }) => setGovernanceChoices(data.labels.flatMap((l) => l.values.map((v) => `${l.name}:${v}`))),
      () => setGovernanceChoices([]),
    );
  }, []);

  useEffect(() => {
    setGoverned(undefined);
    if (governance === '') return undefined;
    let current = true;
    call<{ api_ids: string[] }>('GET', `/api/governance/apis?label=${encodeURIComponent(governance)}`).then(
      ({ data }) => current && setGoverned(new Set(data.api_ids)),
      (e: unknown) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [governance]);

  const labels = useMemo(() => [...new Set((rows ?? []).flatMap((r) => r.tags))].sort(), [rows]);
  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (rows ?? []).filter(
      (r) => (needle === '' || r.search.includes(needle)) && (label === '' || r.tags.includes(label)) && (governance === '' || governed?.has(r.id) === true),
    );
  }, [rows, search, label, governance, governed]);
  const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = filtered.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  if (error) return <Problem error={error} what="list the APIs" />;
  const writable = mayWrite(session, 'apis');

  return (
    <section aria-labelledby="apis-title">
      <div class="page-head">
        <h1 id="apis-title">APIs</h1>
        {writable && (
          <div class="actions">
            <a class="button" href={href('apis', 'new')}>
              Create API
            </a>
            <a class="button secondary" href={href('apis', 'import')}>
              Import API
            </a>
          </div>
        )}
      </div>
      {operatorManaged(session) && (
        <p class="managed-note" role="note">
          This organisation's APIs are managed by the operator: they are shown read-only. Change them through their custom resources in the cluster.
        </p>
      )}
      <div class="filters" role="search">
        <div class="field inline">
          <label for="api-search">Search</label>
          <input
            id="api-search"
            type="search"
            value={search}
            placeholder="Name, listen path or id"
            onInput={(e) => (setSearch(e.currentTarget.value), setPage(1))}
          />
        </div>
        <div class="field inline">
          <label for="api-label">Label</label>
          <select id="api-label" value={label} onChange={(e) => (setLabel(e.currentTarget.value), setPage(1))}>
            <option value="">All labels</option>
            {labels.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </div>
        {governanceChoices.length > 0 && (
          <div class="field inline">
            <label for="api-governance">Governance label</label>
            <select id="api-governance" value={governance} onChange={(e) => (setGovernance(e.currentTarget.value), setPage(1))}>
              <option value="">Any</option>
              {governanceChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {choice.replace(':', ': ')}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <p class="count" role="status" aria-live="polite">
        {rows === undefined || (governance !== '' && governed === undefined)
          ? 'Loading APIs…'
          : `${filtered.length} ${filtered.length === 1 ? 'API' : 'APIs'}${filtered.length !== rows.length ? ` of ${rows.length}` : ''}`}
      </p>
      <table class="list" aria-labelledby="apis-title" aria-busy={rows === undefined}>
        <colgroup>
          <col class="c-name" />
          <col class="c-path" />
          <col class="c-target" />
          <col class="c-auth" />
          <col class="c-tags" />
          <col class="c-status" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Listen path</th>
            <th scope="col">Upstream</th>
            <th scope="col">Authentication</th>
            <th scope="col">Labels</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.id}>
              <td>
                <a href={r.oas ? href('apis', 'oas', r.id) : href('apis', r.id)}>{r.name}</a>
                {r.oas && <span class="badge">OAS</span>}
              </td>
              <td>
                <code>{r.listenPath}</code>
              </td>
              <td class="truncate">{r.target}</td>
              <td class="whole">{r.auth}</td>
              <td>{r.tags.join(', ')}</td>
              <td>{r.active ? 'Active' : 'Inactive'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager of="APIs" page={current} pages={pages} onPage={setPage} />
    </section>
  );
}
