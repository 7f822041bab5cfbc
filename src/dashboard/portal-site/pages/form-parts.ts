// One labelled form control of a portal form: the <label for>, the input, an optional hint and the field's error
// beside it (aria-invalid and aria-describedby point at them, so a screen reader reads the problem with the
// field). Escapes everything (html.ts).
import { html, type Html } from '../html.ts';

export type FieldErrors = Record<string, string | undefined>;

export interface FieldInput {
  id: string;
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  value: string;
  autocomplete?: string;
  required?: boolean;
  hint?: string;
  /** The field's own error, shown under it. */
  error?: string | undefined;
  /** Marked invalid without a note of its own (the form's note names the problem). */
  invalid?: boolean;
  /** An element elsewhere describing the problem. */
  describedBy?: string | undefined;
}

/**
 * The label of a sign-up or key-request field named in the portal configuration: a machine name (`use_case`,
 * `company`, `team-size`) reads as words ("Use case", "Company", "Team size"); a name written as a label (any
 * capital letter or space: "Company", "Use case", "VAT number") is shown as configured.
 */
export function fieldLabel(name: string): string {
  if (/[A-Z ]/.test(name)) return name;
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words === '' ? name : words[0]!.toUpperCase() + words.slice(1);
}

export function fieldInput(field: FieldInput): Html {
  const hintId = `${field.id}-hint`;
  const noteId = `${field.id}-note`;
  const described = [field.hint ? hintId : '', field.error ? noteId : '', field.describedBy ?? ''].filter((id) => id !== '').join(' ');
  const invalid = field.error !== undefined || field.invalid === true;
  return html`<div>
<label for="${field.id}">${field.label}</label>
<input id="${field.id}" name="${field.name}" type="${field.type}" value="${field.value}"${field.autocomplete ? html` autocomplete="${field.autocomplete}"` : ''}${field.required ? html` required` : ''}${invalid ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>
${field.hint ? html`<p class="muted" id="${hintId}">${field.hint}</p>` : ''}
${field.error ? html`<p class="field-note" id="${noteId}">${field.error}</p>` : ''}
</div>`;
}
