// One certificate's page (#/certificates/<id>): subject, names (SANs), issuer, validity, SHA-256 fingerprint,
// whether the private key is held, and the APIs using it (links). Delete asks first; while an API uses the
// certificate the dashboard refuses (409, naming the APIs) and the dialog shows that refusal.
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { ConfirmDialog } from '../parts/confirm-dialog.tsx';
import { Problem } from '../parts/problem.tsx';
import { href, navigate } from '../router.ts';
import { mayWrite, type SessionView } from '../session.ts';

interface CertDetails {
  id: string;
  subject?: string;
  issuer?: string;
  dns_names?: string[];
  not_before?: string;
  not_after?: string;
  fingerprint?: string;
  has_private?: boolean;
  is_ca?: boolean;
}

interface UsingApi {
  api_id: string;
  name: string;
}

export function CertificatePage({ session, id }: { session: SessionView; id: string }) {
  const [cert, setCert] = useState<CertDetails | undefined>();
  const [apis, setApis] = useState<UsingApi[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | undefined>();

  useEffect(() => {
    const path = `/api/certs/${encodeURIComponent(id)}`;
    Promise.all([call<CertDetails>('GET', path), call<{ apis: UsingApi[] }>('GET', `${path}/apis`)]).then(
      ([details, using]) => {
        setCert(details.data);
        setApis(using.data.apis);
      },
      (e: unknown) => setError(e),
    );
  }, [id]);

  if (error) return <Problem error={error} what="open the certificate" />;
  if (cert === undefined || apis === undefined) return <p role="status">Loading the certificate…</p>;

  const remove = async (): Promise<void> => {
    try {
      await call('DELETE', `/api/certs/${encodeURIComponent(id)}`);
      navigate('certificates');
    } catch (e) {
      setDeleteError(e instanceof Error ? e.message : String(e));
    }
  };
  const rows: [string, string][] = [
    ['Subject', cert.subject ?? ''],
    ['Names (SANs)', (cert.dns_names ?? []).join(', ') || 'none'],
    ['Issuer', cert.issuer ?? ''],
    ['Valid from', cert.not_before ?? ''],
    ['Valid until', cert.not_after ?? ''],
    ['SHA-256 fingerprint', cert.fingerprint ?? ''],
    ['Private key', cert.has_private ? 'Held by the dashboard (never shown)' : 'No'],
    ['Certificate authority', cert.is_ca ? 'Yes' : 'No'],
  ];
  return (
    <section aria-labelledby="cert-title">
      <p>
        <a href={href('certificates')}>← Certificates</a>
      </p>
      <h1 id="cert-title">Certificate {cert.subject}</h1>
      <dl class="details">
        {rows.map(([term, value]) => [<dt key={`${term}-t`}>{term}</dt>, <dd key={`${term}-d`}>{value}</dd>])}
        <dt>Id</dt>
        <dd>
          <code>{cert.id}</code>
        </dd>
      </dl>
      <h2 id="cert-apis">Used by</h2>
      {apis.length === 0 ? (
        <p>No API uses this certificate.</p>
      ) : (
        <ul aria-labelledby="cert-apis">
          {apis.map((api) => (
            <li key={api.api_id}>
              <a href={href('apis', api.api_id)}>{api.name}</a>
            </li>
          ))}
        </ul>
      )}
      {mayWrite(session, 'certificates') && (
        <div class="actions">
          <button type="button" class="danger" onClick={() => setConfirming(true)}>
            Delete certificate
          </button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title="Delete this certificate?"
          confirmLabel="Delete"
          error={deleteError}
          onConfirm={() => void remove()}
          onCancel={() => {
            setConfirming(false);
            setDeleteError(undefined);
          }}
        >
          <p>
            {apis.length === 0
              ? 'No API uses it. Deleting cannot be undone.'
              : `${apis.length === 1 ? 'An API uses' : `${apis.length} APIs use`} it (${apis.map((a) => a.name).join(', ')}): the dashboard refuses to delete it until they no longer name it.`}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
