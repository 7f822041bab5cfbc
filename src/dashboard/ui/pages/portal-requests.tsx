// Portal key requests (GET /api/portal/requests?status=pending|approved|declined): who asked, for which catalogue
// entry, with the key request fields they answered. A pending request is approved (PUT .../approve/{id}: the key
// is created; the developer sees it once on the portal's "My keys", so it is not shown here) or declined with a
// reason the developer reads on "My keys" (PUT .../decline/{id} {reason}). Declined requests show their reason.
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { ConfirmDialog } from '../parts/confirm-dialog.tsx';
import { Pager } from '../parts/pager.tsx';
import { Problem } from '../parts/problem.tsx';

type Status = 'pending' | 'approved' | 'declined';

interface KeyRequest {
  id: string;
  apply_policies: string[];
  fields: Record<string, string>;
  date_created: string;
  status: Status;
  decline_reason: string;
  portal_developer: { email: string } | null;
  catalogue_entry: { name: string } | null;
}

const STATUS_LABELS: Record<Status, string> = { pending: 'Pending', approved: 'Approved', declined: 'Declined' };

export function PortalRequestsPage({ writable }: { writable: boolean }) {
  const [status, setStatus] = useState<Status>('pending');
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ Data: KeyRequest[]; Pages: number; page: number } | undefined>();
  const [error, setError] = useState<unknown>();
  const [actionError, setActionError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [declining, setDeclining] = useState<KeyRequest | undefined>();
  const [reason, setReason] = useState('');
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    // An answer for a filter or page no longer chosen (the choice changed while it was on its way) is dropped.
    let current = true;
    setAnswer(undefined);
    call<{ Data: KeyRequest[]; Pages: number }>('GET', `/api/portal/requests?status=${status}&p=${page}`).then(
      ({ data }) => current && setAnswer({ ...data, page }),
      (e: unknown) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [status, page, reloads]);

  if (error) return <Problem error={error} what="list the key requests" />;
  const what = (request: KeyRequest): string => request.catalogue_entry?.name ?? request.apply_policies.join(', ');
  const who = (request: KeyRequest): string => request.portal_developer?.email ?? 'a deleted developer';
  const act = async (work: () => Promise<unknown>, message: string): Promise<boolean> => {
    setActionError(undefined);
    setDone(undefined);
    try {
      await work();
      setDone(message);
      setReloads((n) => n + 1);
      return true;
    } catch (e) {
      setActionError(e instanceof Error ? e.message : String(e));
      return false;
    }
  };
  const approve = (request: KeyRequest): void =>
    void act(
      () => call('PUT', `/api/portal/requests/approve/${encodeURIComponent(request.id)}`),
      `Approved the request of ${who(request)} for ${what(request)}: the developer sees the new key once on the portal's My keys page.`,
    );
  const decline = (request: KeyRequest): void =>
    void act(
      () => call('PUT', `/api/portal/requests/decline/${encodeURIComponent(request.id)}`, { reason: reason.trim() }),
      `Declined the request of ${who(request)} for ${what(request)}.`,
    ).then((ok) => {
      if (ok) setDeclining(undefined);
    });
  const pages = Math.max(answer?.Pages ?? 1, 1);
  const requests = answer?.Data ?? [];

  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title">Key requests</h1>
      <div class="filters">
        <div class="field">
          <label for="request-status">Show requests</label>
          <select
            id="request-status"
            value={status}
            onChange={(e) => {
              setPage(1);
              setDone(undefined);
              setStatus(e.currentTarget.value as Status);
            }}
          >
            {(Object.keys(STATUS_LABELS) as Status[]).map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p class="count" role="status" aria-live="polite">
        {done ??
          (answer === undefined
            ? 'Loading key requests…'
            : `${requests.length} ${STATUS_LABELS[status].toLowerCase()} ${requests.length === 1 ? 'request' : 'requests'} on page ${answer.page} of ${pages}`)}
      </p>
      {actionError !== undefined && declining === undefined && (
        <p class="problem" role="alert">
          {actionError}
        </p>
      )}
      <table class="list" aria-label={`${STATUS_LABELS[status]} key requests`} aria-busy={answer === undefined}>
        <thead>
          <tr>
            <th scope="col">Developer</th>
            <th scope="col">API</th>
            <th scope="col">Their answers</th>
            <th scope="col">Requested</th>
            {status === 'declined' && <th scope="col">Reason</th>}
            {writable && status === 'pending' && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => (
            <tr key={request.id}>
              <td>{who(request)}</td>
              <td>{what(request)}</td>
              <td class="whole">
                {Object.entries(request.fields)
                  .map(([field, value]) => `${field}: ${value}`)
                  .join('; ') || '—'}
              </td>
              <td>{request.date_created.slice(0, 16).replace('T', ' ')} UTC</td>
              {status === 'declined' && <td class="whole">{request.decline_reason || '—'}</td>}
              {writable && status === 'pending' && (
                <td class="whole">
                  <div class="row-actions">
                    <button type="button" aria-label={`Approve the request of ${who(request)} for ${what(request)}`} onClick={() => approve(request)}>
                      Approve
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Decline the request of ${who(request)} for ${what(request)}`}
                      onClick={() => {
                        setReason('');
                        setActionError(undefined);
                        setDeclining(request);
                      }}
                    >
                      Decline
                    </button>
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <Pager of="key requests" page={answer?.page ?? page} pages={pages} onPage={setPage} />
      {declining !== undefined && (
        <ConfirmDialog
          title={`Decline the request of ${who(declining)} for ${what(declining)}?`}
          confirmLabel="Decline request"
          error={actionError}
          onConfirm={() => decline(declining)}
          onCancel={() => {
            setDeclining(undefined);
            setActionError(undefined);
          }}
        >
          <p>No key is issued. The developer sees on the portal's My keys page that the request was declined, with your reason.</p>
          <div class="field">
            <label for="decline-reason">Reason (shown to the developer)</label>
            <textarea id="decline-reason" rows={3} maxLength={1000} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </div>
        </ConfirmDialog>
      )}
    </section>
  );
}
