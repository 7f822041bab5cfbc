// Certificates: the organisation's certificates with their subject, names and validity (each subject links to the
// certificate's page, certificate.tsx), a sentence instead of an empty table, and an upload of a PEM chain
// (optionally with its private key, which the dashboard stores and never returns).
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { LatestAnswer } from '../latest-answer.ts';
import { Field } from '../parts/field.tsx';
import { Problem } from '../parts/problem.tsx';
import { href } from '../router.ts';
import { mayWrite, type SessionView } from '../session.ts';

interface CertMeta {
  id: string;
  subject?: string;
  dns_names?: string[];
  not_after?: string;
  has_private?: boolean;
}

export function CertificatesPage({ session }: { session: SessionView }) {
  const [certs, setCerts] = useState<CertMeta[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [pem, setPem] = useState('');
  const [uploadError, setUploadError] = useState<string | undefined>();
  const [saved, setSaved] = useState('');

  // A write reloads the list: only the latest load's answer is shown (latest-answer.ts).
  const latest = useRef(new LatestAnswer()).current;
  const load = (): void => {
    latest.ask(
      call<{ certs: CertMeta[] }>('GET', '/api/certs?mode=detailed&p=-2'),
      ({ data }) => setCerts(data.certs),
      (e: unknown) => setError(e),
    );
  };
  useEffect(load, []);

  if (error) return <Problem error={error} what="list the certificates" />;

  const upload = async (event: Event): Promise<void> => {
    event.preventDefault();
    setUploadError(undefined);
    try {
      const { data } = await call<{ id: string }>('POST', '/api/certs', undefined, { text: pem });
      setSaved(`Certificate ${data.id} added.`);
      setPem('');
      load();
    } catch (e) {
      setUploadError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <section aria-labelledby="certs-title">
      <h1 id="certs-title">Certificates</h1>
      <p class="count" role="status">
        {certs === undefined ? 'Loading certificates…' : `${certs.length} ${certs.length === 1 ? 'certificate' : 'certificates'}`}
      </p>
      {certs !== undefined && certs.length === 0 ? (
        <p>No certificates yet. Add one below to serve TLS on a custom domain, accept client certificates or present one to an upstream.</p>
      ) : (
        <table class="list" aria-labelledby="certs-title">
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Names</th>
              <th scope="col">Valid until</th>
              <th scope="col">Private key</th>
            </tr>
          </thead>
          <tbody>
            {(certs ?? []).map((c) => (
              <tr key={c.id}>
                <td title={c.id}>
                  <a href={href('certificates', c.id)}>{c.subject || c.id}</a>
                </td>
                <td>{(c.dns_names ?? []).join(', ')}</td>
                <td>{c.not_after}</td>
                <td>{c.has_private ? 'Yes' : 'No'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayWrite(session, 'certificates') && (
        <form class="card" onSubmit={(e) => void upload(e)} aria-labelledby="upload-title">
          <h2 id="upload-title">Add a certificate</h2>
          <p class="message ok" role="status">
            {saved || ' '}
          </p>
          <Field id="cert-pem" label="PEM" hint="The certificate chain, leaf first, optionally with its private key" error={uploadError}>
            {(d, invalid) => (
              <textarea
                id="cert-pem"
                rows={8}
                spellcheck={false}
                value={pem}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => setPem(e.currentTarget.value)}
              />
            )}
          </Field>
          <div class="actions">
            <button type="submit" disabled={pem.trim() === ''}>
              Add certificate
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
