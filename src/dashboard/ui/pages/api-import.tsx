// Import an API from one of gw's documented four sources: an existing API definition (POST /api/apis), an API
// Blueprint JSON, a Swagger/OpenAPI JSON document, or a WSDL with an optional service name and port
// (/api/import/{blueprint,swagger,wsdl}). The document is pasted or read from a chosen file (in the browser; no
// upload happens until Import). The importers' warnings (Warning headers) are shown after success; a refusal
// names the field.
import { useState } from 'preact/hooks';
import { parse as fromYaml } from 'yaml';
import { ApiError, call, errorAt } from '../api-client.ts';
import { Field } from '../parts/field.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { href, navigate } from '../router.ts';
import { mayWrite, type SessionView } from '../session.ts';

type Source = 'definition' | 'blueprint' | 'swagger' | 'wsdl';

/** Where the importer's warnings wait for the API page the import opens (this tab only). */
export const IMPORT_WARNINGS_KEY = 'gw-import-warnings';

/** The importer's notes from Warning headers (`199 gw "text"`, several joined by the browser with ", "). */
export function warningsOf(header: string): string[] {
  return [...header.matchAll(/199 gw "([^"]*)"/g)].map((m) => m[1]!);
}

const SOURCES: { source: Source; label: string; hint: string }[] = [
  { source: 'definition', label: 'Existing API definition', hint: 'A gw (Classic) API definition, JSON or YAML.' },
  { source: 'blueprint', label: 'API Blueprint (JSON)', hint: 'An API Blueprint document in its JSON form.' },
  { source: 'swagger', label: 'Swagger / OpenAPI (JSON)', hint: 'OpenAPI 2.0 needs an upstream URL; after an OpenAPI 3 import, check the listen path.' },
  { source: 'wsdl', label: 'WSDL', hint: 'A WSDL 1.1 document (XML); the service and port are optional.' },
];

export function ApiImportPage({ session }: { session: SessionView }) {
  const [source, setSource] = useState<Source>('swagger');
  const [documentText, setDocumentText] = useState('');
  const [upstream, setUpstream] = useState('');
  const [versionName, setVersionName] = useState('');
  const [asMock, setAsMock] = useState(false);
  const [serviceName, setServiceName] = useState('');
  const [portName, setPortName] = useState('');
  const [error, setError] = useState<ApiError | Error | undefined>();
  const [busy, setBusy] = useState(false);

  if (!mayWrite(session, 'apis')) return <Problem error={new ApiError(403, 'access denied: requires apis write')} what="import APIs" />;

  const readFile = async (file: File | undefined): Promise<void> => {
    if (file) setDocumentText(await file.text());
  };

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const common = { ...(upstream ? { upstream_url: upstream } : {}), ...(versionName ? { version_name: versionName } : {}) };
      let answer;
      if (source === 'definition') {
        answer = await call<{ Meta: string }>('POST', '/api/apis', fromYaml(documentText) as unknown);
      } else if (source === 'blueprint') {
        answer = await call<{ Meta: string }>('POST', '/api/import/blueprint', { blueprint: documentText, as_mock: asMock, ...common });
      } else if (source === 'swagger') {
        answer = await call<{ Meta: string }>('POST', '/api/import/swagger', { swagger: documentText, ...common });
      } else {
        answer = await call<{ Meta: string }>('POST', '/api/import/wsdl', {
          wsdl: documentText,
          ...(serviceName ? { service_name: serviceName } : {}),
          ...(portName ? { port_name: portName } : {}),
          ...common,
        });
      }
      const warnings = answer.headers.get('warning');
      if (warnings) sessionStorage.setItem(IMPORT_WARNINGS_KEY, JSON.stringify(warningsOf(warnings)));
      navigate('apis', answer.data.Meta);
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (field: string): string | undefined => errorAt(error, field);
  const documentField = { definition: 'definition', blueprint: 'blueprint', swagger: 'swagger', wsdl: 'wsdl' }[source];
  const documentError = fieldError(documentField);

  return (
    <section aria-labelledby="import-title">
      <div class="page-head">
        <h1 id="import-title">Import API</h1>
        <a class="button secondary" href={href('apis')}>
          Back to APIs
        </a>
      </div>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <fieldset class="sources">
          <legend>Source</legend>
          {SOURCES.map((s) => (
            <label key={s.source} class="radio">
              <input type="radio" name="source" value={s.source} checked={source === s.source} onChange={() => setSource(s.source)} /> {s.label}
            </label>
          ))}
          <p class="field-hint">{SOURCES.find((s) => s.source === source)!.hint}</p>
        </fieldset>
        <div class="field">
          <label for="import-file">Read the document from a file</label>
          <input
            id="import-file"
            type="file"
            accept={source === 'wsdl' ? '.wsdl,.xml' : '.json,.yaml,.yml'}
            onChange={(e) => void readFile(e.currentTarget.files?.[0])}
          />
        </div>
        <Field id="import-document" label="Document" error={documentError}>
          {(d, invalid) => (
            <textarea
              id="import-document"
              rows={14}
              spellcheck={false}
              value={documentText}
              aria-describedby={d}
              aria-invalid={invalid}
              onInput={(e) => setDocumentText(e.currentTarget.value)}
            />
          )}
        </Field>
        {source !== 'definition' && (
          <div class="pair">
            <Field id="import-upstream" label="Upstream URL" hint="Where the imported API forwards to" error={fieldError('upstream_url')}>
              {(d, invalid) => (
                <input
                  id="import-upstream"
                  type="url"
                  value={upstream}
                  aria-describedby={d}
                  aria-invalid={invalid}
                  onInput={(e) => setUpstream(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field id="import-version" label="Version name" hint="Optional" error={fieldError('version_name')}>
              {(d, invalid) => (
                <input
                  id="import-version"
                  value={versionName}
                  aria-describedby={d}
                  aria-invalid={invalid}
                  onInput={(e) => setVersionName(e.currentTarget.value)}
                />
              )}
            </Field>
          </div>
        )}
        {source === 'blueprint' && (
          <label class="checks">
            <input type="checkbox" checked={asMock} onChange={(e) => setAsMock(e.currentTarget.checked)} /> Answer with the blueprint's example responses (mock)
          </label>
        )}
        {source === 'wsdl' && (
          <div class="pair">
            <Field id="import-service" label="Service name" hint="Optional: the WSDL service to import" error={fieldError('service_name')}>
              {(d, invalid) => (
                <input
                  id="import-service"
                  value={serviceName}
                  aria-describedby={d}
                  aria-invalid={invalid}
                  onInput={(e) => setServiceName(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field id="import-port" label="Port name" hint="Optional: the service's port" error={fieldError('port_name')}>
              {(d, invalid) => (
                <input id="import-port" value={portName} aria-describedby={d} aria-invalid={invalid} onInput={(e) => setPortName(e.currentTarget.value)} />
              )}
            </Field>
          </div>
        )}
        <FormAlert error={error} />
        {error instanceof ApiError && error.fields.length > 0 && (
          <ul class="error-summary" role="alert" aria-label="Problems">
            {error.fields.map((f) => (
              <li key={f.field + f.message}>
                <code>{f.field}</code>: {f.message}
              </li>
            ))}
          </ul>
        )}
        <div class="actions">
          <button type="submit" disabled={busy || documentText.trim() === ''}>
            Import
          </button>
        </div>
      </form>
    </section>
  );
}
