// A labelled form control with its error beside it: the label names the control, the error is linked through
// aria-describedby and marks it aria-invalid, so a screen reader hears both. Space for a hint or error is
// reserved, so an error appearing never moves the rest of the form (no layout shift).
import type { ComponentChildren } from 'preact';

export interface FieldProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  children: (describedBy: string, invalid: boolean) => ComponentChildren;
}

export function Field({ id, label, hint, error, children }: FieldProps) {
  const described = `${id}-note`;
  return (
    <div class={`field${error ? ' has-error' : ''}`}>
      <label for={id}>{label}</label>
      {children(described, error !== undefined)}
      <p id={described} class={error ? 'field-error' : 'field-hint'}>
        {error ?? hint ?? ' '}
      </p>
    </div>
  );
}
