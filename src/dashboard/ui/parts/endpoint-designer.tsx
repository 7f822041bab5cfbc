// The API form's endpoint designer: per-endpoint rules of a Classic definition's default version
// (endpoint-rules.ts) or of an OAS document's operations (oas-endpoint-rules.ts), the model choosing; one group per
// rule with its kind, path, method and the kind's own inputs, added, changed and removed with buttons; every control
// is labelled with its rule's number, and a new rule takes the focus. A field the dashboard refuses (it names it, e.g.
// version_data.versions.Default.extended_paths.black_list[0].path, or
// x-gw-api-gateway.middleware.operations.adminGET.enforceTimeout.value) is shown under the input that wrote it and
// marks it invalid; a refusal of the rule as a whole under the rule.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import type { FieldError } from '../field-errors.ts';
import { KINDS, METHODS, type EndpointRule, type RuleKind, type RulesModel } from '../endpoint-rules.ts';

export interface EndpointDesignerProps {
  model: RulesModel;
  definition: Record<string, unknown>;
  rules: EndpointRule[];
  readOnly: boolean;
  errors: FieldError[];
  /** Applies a change to the rules as they are when it runs (two events before a render must not undo each other). */
  update: (change: (rules: EndpointRule[]) => EndpointRule[]) => void;
}

interface ControlProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error: string | undefined;
  children: (describedBy: string, invalid: boolean) => ComponentChildren;
}

function Control({ id, label, hint, error, children }: ControlProps) {
  const note = `${id}-note`;
  return (
    <div class={`rule-control${error ? ' has-error' : ''}`}>
      <label for={id}>{label}</label>
      {children(note, error !== undefined)}
      <p id={note} class={error ? 'field-error' : 'field-hint'}>
        {error ?? hint ?? ' '}
      </p>
    </div>
  );
}

export function EndpointDesigner({ model, definition, rules, readOnly, errors, update }: EndpointDesignerProps) {
  // A rule just added takes the focus (its kind first), so the keyboard goes on from there. A layout effect: the
  // focus moves in the same commit as the rule appears (an effect ran after paint, and a keystroke between the two
  // went to the button).
  const [added, setAdded] = useState<number | undefined>();
  useLayoutEffect(() => {
    if (added === undefined) return;
    document.getElementById(`rule-${added}-kind`)?.focus();
    setAdded(undefined);
  }, [added]);
  const set = (index: number, change: (rule: EndpointRule) => EndpointRule): void =>
    update((current) => current.map((rule, i) => (i === index ? change(rule) : rule)));
  return (
    <fieldset class="endpoints" disabled={readOnly}>
      <legend>{model.legend}</legend>
      {rules.length === 0 && <p class="field-hint">No endpoint has a rule of its own.</p>}
      {rules.map((rule, index) => {
        const n = index + 1;
        const ruleField = model.fieldOfRule(definition, rules, index);
        const mine = errors.map((e) => ({ error: e, input: model.refusedInput(rule, ruleField, e.field) })).filter((m) => m.input !== undefined);
        const errorAt = (input: string): string | undefined => {
          const found = mine.find((m) => m.input === input)?.error;
          return found && `${found.field}: ${found.message}`;
        };
        const id = (name: string): string => `rule-${n}-${name.replace(/_/g, '-')}`;
        return (
          <fieldset class="rule" key={index} aria-label={`Rule ${n}`}>
            <div class="endpoint-row">
              <Control id={id('kind')} label={`Rule ${n} kind`} error={undefined}>
                {(d) => (
                  <select
                    id={id('kind')}
                    aria-describedby={d}
                    value={rule.kind}
                    onChange={(e) => set(index, (r) => model.withKind(r, e.currentTarget.value as RuleKind))}
                  >
                    {model.kinds.map((kind) => (
                      <option key={kind} value={kind}>
                        {KINDS[kind].label}
                      </option>
                    ))}
                  </select>
                )}
              </Control>
              <Control id={id('path')} label={`Rule ${n} path`} hint="Relative to the listen path; {name} matches a segment" error={errorAt('path')}>
                {(d, invalid) => (
                  <input
                    id={id('path')}
                    value={rule.path}
                    aria-describedby={d}
                    aria-invalid={invalid}
                    onInput={(e) => {
                      const path = e.currentTarget.value;
                      set(index, (r) => ({ ...r, path }));
                    }}
                  />
                )}
              </Control>
              {model.hasMethod(rule.kind) && (
                <Control id={id('method')} label={`Rule ${n} method`} error={errorAt('method')}>
                  {(d, invalid) => (
                    <select
                      id={id('method')}
                      value={rule.method}
                      aria-describedby={d}
                      aria-invalid={invalid}
                      onChange={(e) => {
                        const method = e.currentTarget.value;
                        set(index, (r) => ({ ...r, method }));
                      }}
                    >
                      {model.anyMethod(rule.kind) && <option value="">Any method</option>}
                      {(METHODS.includes(rule.method) || rule.method === '' ? METHODS : [rule.method, ...METHODS]).map((m) => (
                        <option key={m}>{m}</option>
                      ))}
                    </select>
                  )}
                </Control>
              )}
            </div>
            {model.inputs(rule.kind).length > 0 && (
              <div class="endpoint-row">
                {model.inputs(rule.kind).map((input) => (
                  <Control key={input.name} id={id(input.name)} label={`Rule ${n} ${input.label.toLowerCase()}`} hint={input.hint} error={errorAt(input.name)}>
                    {(d, invalid) => {
                      const onInput = (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }): void => {
                        const typed = e.currentTarget.value;
                        set(index, (r) => ({ ...r, values: { ...r.values, [input.name]: typed } }));
                      };
                      const value = rule.values[input.name] ?? '';
                      return input.multiline ? (
                        <textarea id={id(input.name)} rows={3} spellcheck={false} value={value} aria-describedby={d} aria-invalid={invalid} onInput={onInput} />
                      ) : (
                        <input id={id(input.name)} value={value} aria-describedby={d} aria-invalid={invalid} onInput={onInput} />
                      );
                    }}
                  </Control>
                ))}
              </div>
            )}
            {errorAt('rule') && (
              <p class="field-error" role="alert">
                {errorAt('rule')}
              </p>
            )}
            <button type="button" class="secondary" onClick={() => update((current) => current.filter((_, i) => i !== index))}>
              Remove rule {n}
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          update((current) => [...current, model.newRule('block')]);
          setAdded(rules.length + 1);
        }}
      >
        Add an endpoint rule
      </button>
      <p class="field-hint">{model.note}</p>
    </fieldset>
  );
}
