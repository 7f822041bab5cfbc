// Create or edit an API: a form for the common settings (definition-form.ts) with the endpoint designer
// (parts/endpoint-designer.tsx), and a JSON/YAML editor for the whole
// definition; one definition underneath, so switching views keeps every change. Save sends it to the dashboard,
// which validates it: each refused field is shown at its input in the form, or underlined at its place in the
// editor's text, and listed in a summary whose entries name the fields. OAS APIs open in the editor; their form tab
// is the endpoint designer on the document's operations (oas-endpoint-rules.ts), without the Classic settings.
// Operator-managed organisations (and users without write permission) see everything read-only, with a note.
import { useEffect, useRef, useState } from 'preact/hooks';
import { stringify as toYaml, parse as fromYaml } from 'yaml';
import { ApiError, call } from '../api-client.ts';
import type { FieldError } from '../field-errors.ts';
import { applySettings, AUTH_MODES, NEW_API, SETTING_FIELDS, settingsOf, type CommonSettings } from '../definition-form.ts';
import { CLASSIC_RULES, type EndpointRule } from '../endpoint-rules.ts';
import { OAS_EXTENSION, OAS_RULES } from '../oas-endpoint-rules.ts';
import { EndpointDesigner } from '../parts/endpoint-designer.tsx';
import type { EditorProblem } from '../parts/code-editor.tsx';
import { LazyCodeEditor } from '../parts/lazy-code-editor.tsx';
import { IMPORT_WARNINGS_KEY } from './api-import.tsx';
import { Field } from '../parts/field.tsx';
import { GovernanceLabels } from '../parts/governance-labels.tsx';
import { Problem } from '../parts/problem.tsx';
import { href, navigate } from '../router.ts';
import { ApiActions } from '../parts/api-actions.tsx';
import { k8sOwnedReadOnly, kubectlEdit, mayWrite, operatorManaged, type SessionView } from '../session.ts';
import { locateField } from '../text-location.ts';

type Mode = 'form' | 'json' | 'yaml';
type Definition = Record<string, unknown>;

const render = (definition: Definition, mode: Mode): string => (mode === 'yaml' ? toYaml(definition) : `${JSON.stringify(definition, null, 2)}\n`);

function parseText(text: string, mode: Mode): Definition {
  const value: unknown = mode === 'yaml' ? fromYaml(text) : JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the definition must be an object');
  return value as Definition;
}

export function ApiEditPage({ session, id, oas = false }: { session: SessionView; id?: string; oas?: boolean }) {
  const path = oas ? `/api/apis/oas/${encodeURIComponent(id ?? '')}` : id ? `/api/apis/${encodeURIComponent(id)}` : '/api/apis';
  const [definition, setDefinition] = useState<Definition | undefined>(id ? undefined : NEW_API);
  const [loadError, setLoadError] = useState<unknown>();
  const [mode, setMode] = useState<Mode>(oas ? 'json' : 'form');
  const [text, setText] = useState('');
  // Bumped whenever the text is replaced from outside the editor (load, view switch): remounts the editor.
  const [loaded, setLoaded] = useState(0);
  const replaceText = (next: string): void => {
    setText(next);
    setLoaded((n) => n + 1);
  };
  const [errors, setErrors] = useState<FieldError[]>([]);
  // The designer's rules as typed (a half-typed header line or schema would not survive a trip through the
  // definition); each change is also written into the definition.
  const model = oas ? OAS_RULES : CLASSIC_RULES;
  const rules = useRef<EndpointRule[]>(id ? [] : model.rulesOf(NEW_API));
  // OAS rules are written into the document as it was when the designer read it: a path typed letter by letter
  // would otherwise leave an operation in `paths` for every prefix. (The Classic form edits settings too, and its
  // rules live in lists rewritten whole, so it writes into the current definition.)
  const designerBase = useRef<Definition | undefined>(undefined);
  const [, setRulesShown] = useState(0);
  const resetRules = (from: Definition): void => {
    rules.current = model.rulesOf(from);
    designerBase.current = from;
    setRulesShown((n) => n + 1);
  };
  const updateRules = (change: (current: EndpointRule[]) => EndpointRule[]): void => {
    const next = change(rules.current);
    rules.current = next;
    setRulesShown((n) => n + 1);
    setDefinition((current) => current && model.withRules(oas ? (designerBase.current ?? current) : current, next));
  };
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();
  const [saving, setSaving] = useState(false);
  const [k8sObject, setK8sObject] = useState<string | undefined>();
  const readOnly = !mayWrite(session, 'apis') || (k8sObject !== undefined && k8sOwnedReadOnly(session));
  const [importNotes] = useState<string[]>(() => {
    const stored = sessionStorage.getItem(IMPORT_WARNINGS_KEY);
    sessionStorage.removeItem(IMPORT_WARNINGS_KEY);
    return stored ? (JSON.parse(stored) as string[]) : [];
  });

  useEffect(() => {
    if (!id) {
      replaceText(render(NEW_API, mode));
      return;
    }
    call<Definition>('GET', path).then(
      ({ data, headers }) => {
        setK8sObject(headers.get('x-gw-k8s-object') ?? undefined);
        const found = oas ? data : ((data.api_definition as Definition | undefined) ?? data);
        setDefinition(found);
        resetRules(found);
        replaceText(render(found, mode));
      },
      (e: unknown) => setLoadError(e),
    );
  }, [path]);

  // Placed once, in the text that was sent; CodeMirror then keeps them at their fields through later edits.
  const [problems, setProblems] = useState<EditorProblem[]>([]);

  if (loadError) return <Problem error={loadError} what="open this API" />;
  if (!definition) return <p role="status">Loading the API…</p>;

  const settings = settingsOf(definition);
  // Functional updates: two change events before a render (a blur, then a select) must not undo each other.
  const setSetting = <K extends keyof CommonSettings>(key: K, value: CommonSettings[K]): void =>
    setDefinition((current) => current && applySettings(current, { ...settingsOf(current), [key]: value }));
  const errorFor = (key: keyof CommonSettings): string | undefined => {
    const found = errors.find((e) => SETTING_FIELDS[key].includes(e.field));
    return found && `${found.field}: ${found.message}`;
  };

  const switchTo = (next: Mode): void => {
    if (next === mode) return;
    let current = definition;
    if (mode !== 'form') {
      try {
        current = parseText(text, mode);
      } catch (e) {
        setMessage({ kind: 'error', text: `The ${mode.toUpperCase()} text cannot be read, fix it first: ${e instanceof Error ? e.message : String(e)}` });
        return;
      }
    }
    setDefinition(current);
    if (next === 'form') resetRules(current);
    setProblems([]);
    if (next !== 'form') replaceText(render(current, next));
    setMessage(undefined);
    setMode(next);
  };

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    let body = definition;
    if (mode !== 'form') {
      try {
        body = parseText(text, mode);
      } catch (e) {
        setMessage({ kind: 'error', text: `The ${mode.toUpperCase()} text cannot be read: ${e instanceof Error ? e.message : String(e)}` });
        return;
      }
    }
    setSaving(true);
    setErrors([]);
    setProblems([]);
    setMessage(undefined);
    try {
      const { data } = await call<{ Meta: unknown }>(id ? 'PUT' : 'POST', path, body);
      setDefinition(body);
      if (!id && typeof data.Meta === 'string') navigate('apis', data.Meta);
      else setMessage({ kind: 'ok', text: 'Saved.' });
    } catch (e) {
      if (e instanceof ApiError) {
        setErrors(e.fields);
        if (mode !== 'form') setProblems(e.fields.map((f) => ({ ...locateField(text, f.path), message: `${f.field}: ${f.message}` })));
      }
      setMessage({
        kind: 'error',
        text:
          e instanceof ApiError && e.fields.length > 0
            ? 'The dashboard refused the definition; see the fields below.'
            : e instanceof Error
              ? e.message
              : String(e),
      });
    } finally {
      setSaving(false);
    }
  };

  const isRuleField = (field: string): boolean =>
    rules.current.some((rule, i) => model.refusedInput(rule, model.fieldOfRule(definition, rules.current, i), field) !== undefined);
  const unshownInForm =
    mode === 'form' ? errors.filter((e) => !isRuleField(e.field) && !Object.values(SETTING_FIELDS).some((fields) => fields.includes(e.field))) : errors;
  // An OAS API is named in its gateway section (Tyk's x-tyk-api-gateway.info.name).
  const oasName = (definition[OAS_EXTENSION] as { info?: { name?: unknown } } | undefined)?.info?.name;
  const name = oas ? (typeof oasName === 'string' ? oasName : '') : settings.name;
  const title = id ? `API: ${name || id}` : 'Create API';

  return (
    <section aria-labelledby="api-title">
      <div class="page-head">
        <h1 id="api-title">{title}</h1>
        <a class="button secondary" href={href('apis')}>
          Back to APIs
        </a>
      </div>
      {k8sObject !== undefined && (
        <p class="managed-note" role="note">
          <span class="badge">From Kubernetes: {k8sObject}</span>{' '}
          {k8sOwnedReadOnly(session)
            ? 'Read-only here, since the operator would put a change back: change it with '
            : 'Hand edits are allowed here, but the operator puts its custom resource back; prefer '}
          <code>{kubectlEdit(k8sObject)}</code>.
        </p>
      )}
      {operatorManaged(session) && k8sObject === undefined && (
        <p class="managed-note" role="note">
          Managed by the operator: this API is read-only here. Change its custom resource in the cluster; the operator keeps the dashboard in step.
        </p>
      )}
      {importNotes.length > 0 && (
        <section class="import-notes" aria-labelledby="import-notes-title">
          <h2 id="import-notes-title">Imported, with notes</h2>
          <ul>
            {importNotes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
      )}
      <div role="tablist" aria-label="How to edit" class="tabs">
        {(oas ? (['json', 'yaml', 'form'] as Mode[]) : (['form', 'json', 'yaml'] as Mode[])).map((m) => (
          <button key={m} type="button" role="tab" id={`tab-${m}`} aria-selected={mode === m} aria-controls="api-panel" onClick={() => switchTo(m)}>
            {m === 'form' ? (oas ? 'Endpoints' : 'Settings') : m.toUpperCase()}
          </button>
        ))}
      </div>
      <div id="api-panel" role="tabpanel" aria-labelledby={`tab-${mode}`}>
        <form onSubmit={(e) => void save(e)} noValidate aria-label="API definition">
          <p class={`message ${message?.kind ?? ''}`} role={message?.kind === 'error' ? 'alert' : 'status'}>
            {message?.text ?? ' '}
          </p>
          {unshownInForm.length > 0 && (
            <ul class="error-summary" aria-label="Problems">
              {unshownInForm.map((e) => (
                <li key={e.field + e.message}>
                  <code>{e.field}</code>: {e.message}
                </li>
              ))}
            </ul>
          )}
          {mode === 'form' && !oas ? (
            <fieldset disabled={readOnly} class="settings">
              <legend>Common settings</legend>
              <Field id="api-name" label="Name" error={errorFor('name')}>
                {(d, invalid) => (
                  <input
                    id="api-name"
                    value={settings.name}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    required
                    onInput={(e) => setSetting('name', e.currentTarget.value)}
                  />
                )}
              </Field>
              <Field id="api-listen-path" label="Listen path" hint="The path on the gateway, e.g. /orders/" error={errorFor('listenPath')}>
                {(d, invalid) => (
                  <input
                    id="api-listen-path"
                    value={settings.listenPath}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onInput={(e) => setSetting('listenPath', e.currentTarget.value)}
                  />
                )}
              </Field>
              <Field id="api-target" label="Upstream URL" hint="Where requests are forwarded, e.g. http://orders.internal:8080/" error={errorFor('targetUrl')}>
                {(d, invalid) => (
                  <input
                    id="api-target"
                    type="url"
                    value={settings.targetUrl}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onInput={(e) => setSetting('targetUrl', e.currentTarget.value)}
                  />
                )}
              </Field>
              <div class="checks">
                <label>
                  <input type="checkbox" checked={settings.stripListenPath} onChange={(e) => setSetting('stripListenPath', e.currentTarget.checked)} /> Strip
                  the listen path before forwarding
                </label>
                <label>
                  <input type="checkbox" checked={settings.active} onChange={(e) => setSetting('active', e.currentTarget.checked)} /> Active
                </label>
              </div>
              <Field id="api-auth" label="Authentication" error={errorFor('authMode')}>
                {(d, invalid) => (
                  <select
                    id="api-auth"
                    value={settings.authMode}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onChange={(e) => setSetting('authMode', e.currentTarget.value as CommonSettings['authMode'])}
                  >
                    {AUTH_MODES.map((m) => (
                      <option key={m.mode} value={m.mode}>
                        {m.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field id="api-versions" label="Versions" hint="Version names, separated by commas" error={errorFor('versions')}>
                {(d, invalid) => (
                  <input
                    id="api-versions"
                    value={settings.versions}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onChange={(e) => setSetting('versions', e.currentTarget.value)}
                  />
                )}
              </Field>
              <Field id="api-default-version" label="Default version" error={errorFor('defaultVersion')}>
                {(d, invalid) => (
                  <input
                    id="api-default-version"
                    value={settings.defaultVersion}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onChange={(e) => setSetting('defaultVersion', e.currentTarget.value)}
                  />
                )}
              </Field>
              <div class="pair">
                <Field id="api-rate" label="Rate limit (requests)" hint="Across all clients; empty for none" error={errorFor('rate')}>
                  {(d, invalid) => (
                    <input
                      id="api-rate"
                      inputMode="numeric"
                      value={settings.rate}
                      aria-describedby={d}
                      aria-invalid={invalid}
                      onChange={(e) => setSetting('rate', e.currentTarget.value)}
                    />
                  )}
                </Field>
                <Field id="api-per" label="Per (seconds)" error={errorFor('per')}>
                  {(d, invalid) => (
                    <input
                      id="api-per"
                      inputMode="numeric"
                      value={settings.per}
                      aria-describedby={d}
                      aria-invalid={invalid}
                      onChange={(e) => setSetting('per', e.currentTarget.value)}
                    />
                  )}
                </Field>
              </div>
              <Field id="api-tags" label="Labels (tags)" hint="Separated by commas" error={errorFor('tags')}>
                {(d, invalid) => (
                  <input
                    id="api-tags"
                    value={settings.tags}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onChange={(e) => setSetting('tags', e.currentTarget.value)}
                  />
                )}
              </Field>
            </fieldset>
          ) : null}
          {mode === 'form' ? (
            <EndpointDesigner model={model} definition={definition} rules={rules.current} readOnly={readOnly} errors={errors} update={updateRules} />
          ) : (
            <LazyCodeEditor
              key={`${mode}-${loaded}`}
              id="api-definition"
              label={`API definition (${mode.toUpperCase()})`}
              language={mode}
              initialText={text}
              readOnly={readOnly}
              problems={problems}
              onChange={setText}
            />
          )}
          {!readOnly && (
            <div class="actions">
              <button type="submit" disabled={saving}>
                {id ? 'Save API' : 'Create API'}
              </button>
            </div>
          )}
        </form>
      </div>
      {id && !readOnly && <ApiActions path={path} name={name} classic={oas ? undefined : definition} />}
      {id && <GovernanceLabels apiId={id} session={session} />}
    </section>
  );
}
