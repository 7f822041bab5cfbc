// The form's table of endpoint timeouts: one row per endpoint (path, method, seconds the upstream has to answer,
// else 504), added and removed with buttons; every control labelled per row. The refused field of a row (the
// dashboard names it, e.g. version_data.versions.Default.extended_paths.hard_timeouts[0].timeout) shows under the
// table.
import type { EndpointTimeout } from '../definition-form.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export interface EndpointTimeoutsProps {
  rows: EndpointTimeout[];
  readOnly: boolean;
  error: string | undefined;
  /** Applies a change to the rows as they are when it runs (two events before a render must not undo each other). */
  update: (change: (rows: EndpointTimeout[]) => EndpointTimeout[]) => void;
}

export function EndpointTimeouts({ rows, readOnly, error, update }: EndpointTimeoutsProps) {
  const set = (index: number, change: Partial<EndpointTimeout>): void =>
    update((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset class="endpoints" disabled={readOnly}>
      <legend>Endpoint timeouts (default version)</legend>
      {rows.length === 0 && <p class="field-hint">No endpoint has its own timeout.</p>}
      {rows.map((row, index) => (
        <div class="endpoint-row" key={index}>
          <label>
            Path <input value={row.path} aria-label={`Endpoint ${index + 1} path`} onInput={(e) => set(index, { path: e.currentTarget.value })} />
          </label>
          <label>
            Method{' '}
            <select value={row.method} aria-label={`Endpoint ${index + 1} method`} onChange={(e) => set(index, { method: e.currentTarget.value })}>
              {METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
          <label>
            Timeout (s){' '}
            <input
              inputMode="numeric"
              value={row.timeout}
              aria-label={`Endpoint ${index + 1} timeout in seconds`}
              onInput={(e) => set(index, { timeout: e.currentTarget.value })}
            />
          </label>
          <button type="button" class="secondary" onClick={() => update((current) => current.filter((_, i) => i !== index))}>
            Remove endpoint {index + 1}
          </button>
        </div>
      ))}
      <button type="button" class="secondary" onClick={() => update((current) => [...current, { path: '/', method: 'GET', timeout: '30' }])}>
        Add an endpoint timeout
      </button>
      <p class={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined}>
        {error ?? 'Mocks, transforms and the other endpoint settings: use the JSON or YAML view.'}
      </p>
    </fieldset>
  );
}
