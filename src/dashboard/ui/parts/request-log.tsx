// The request log of keys with detailed logging on (GET /api/logs): newest first, one page at a time, each row
// with its request and response bodies behind a disclosure. Only requests the gateway recorded in detail are
// here; the charts count every request.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { LatestAnswer } from '../latest-answer.ts';
import { Problem } from './problem.tsx';

interface LogEntry {
  time: string;
  api_id: string;
  key_hash: string;
  alias: string;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  request: string;
  response: string;
}

export function RequestLog({ span, apiNames, version }: { span: { from: number; to: number }; apiNames: ReadonlyMap<string, string>; version: number }) {
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ data: LogEntry[]; pages: number } | undefined>();
  const [error, setError] = useState<unknown>();
  const latest = useRef(new LatestAnswer()).current;

  useEffect(() => setPage(1), [span.from, span.to]);
  useEffect(() => {
    const start = Math.floor(span.from / 1000);
    const end = Math.floor(span.to / 1000);
    latest.ask(
      call<{ data: LogEntry[]; pages: number }>('GET', `/api/logs?start=${start}&end=${end}&p=${page}`),
      ({ data }) => {
        setError(undefined);
        setAnswer(data);
      },
      (e: unknown) => setError(e),
    );
  }, [span.from, span.to, page, version]);

  if (error) return <Problem error={error} what="read the request log" />;
  const entries = answer?.data ?? [];
  return (
    <>
      <p class="count" role="status">
        {answer === undefined
          ? 'Loading the request log…'
          : entries.length === 0
            ? 'No requests recorded in detail in this range (detailed logging is a key option).'
            : `Page ${page} of ${answer.pages}`}
      </p>
      <table class="list" aria-labelledby="log-title">
        <colgroup>
          <col style={{ width: '17%' }} />
          <col style={{ width: '17%' }} />
          <col style={{ width: '13%' }} />
          <col style={{ width: '8%' }} />
          <col style={{ width: '27%' }} />
          <col style={{ width: '8%' }} />
          <col style={{ width: '10%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">API</th>
            <th scope="col">Key</th>
            <th scope="col">Method</th>
            <th scope="col">Path and bodies</th>
            <th scope="col">Status</th>
            <th scope="col">Latency</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={`${e.time}-${i}`} class="log-row">
              <td>{new Date(e.time).toLocaleString()}</td>
              <td>{apiNames.get(e.api_id) ?? e.api_id}</td>
              <td title={e.key_hash}>{e.alias || `${e.key_hash.slice(0, 8)}…`}</td>
              <td>{e.method}</td>
              <td class="wrap">
                <details>
                  <summary>{e.path}</summary>
                  <p class="body-label">Request body</p>
                  <pre>{e.request || '(empty)'}</pre>
                  <p class="body-label">Response body</p>
                  <pre>{e.response || '(empty)'}</pre>
                </details>
              </td>
              <td>{e.status}</td>
              <td>{e.latency_ms} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
      {answer !== undefined && answer.pages > 1 && (
        <nav class="pager" aria-label="Request log pages">
          <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <button type="button" class="secondary" disabled={page >= answer.pages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      )}
    </>
  );
}
