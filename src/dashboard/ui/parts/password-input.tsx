// A labelled password input (a password, an access key, the admin secret) with its hint or refusal beside it
// (Field: aria-describedby, aria-invalid). The browser's password manager is told what it holds through
// autocomplete. Shared by the sign-in forms and the password forms.
import type { RefObject } from 'preact';
import { Field } from './field.tsx';

export interface PasswordInputProps {
  id: string;
  label: string;
  /** What the browser's password manager may do with it: current-password, new-password, or off (the admin secret). */
  autoComplete: 'current-password' | 'new-password' | 'off';
  value: string;
  onInput: (value: string) => void;
  hint?: string | undefined;
  error?: string | undefined;
  required?: boolean;
  inputRef?: RefObject<HTMLInputElement | null>;
}

export function PasswordInput({ id, label, autoComplete, value, onInput, hint, error, required, inputRef }: PasswordInputProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(describedBy, invalid) => (
        <input
          id={id}
          ref={inputRef}
          type="password"
          autoComplete={autoComplete}
          required={required}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
