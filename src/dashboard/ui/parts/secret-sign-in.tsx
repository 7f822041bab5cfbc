// A sign-in form of one secret (a user's access key, the admin secret): a labelled password field with the refusal
// at it, a submit button, a status line for a note. The secret leaves the page's state as it is submitted, whatever
// the answer: it is handed to onSubmit once and never kept.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { PasswordInput, type PasswordInputProps } from './password-input.tsx';

export interface SecretSignInProps {
  title: string;
  note?: string | undefined;
  field: { id: string; label: string; hint: string; autoComplete: PasswordInputProps['autoComplete'] };
  button: string;
  /** Sends the secret; resolves to the refusal to show at the field, or undefined when signed in. */
  onSubmit: (secret: string) => Promise<string | undefined>;
  children?: ComponentChildren;
  /** Shown after the form (another way to sign in, with its own form). */
  after?: ComponentChildren;
}

export function SecretSignIn({ title, note, field, button, onSubmit, children, after }: SecretSignInProps) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const given = secret.trim();
    setSecret('');
    setBusy(true);
    setError(undefined);
    try {
      setError(await onSubmit(given));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <form onSubmit={(e) => void submit(e)} aria-labelledby={`${field.id}-title`}>
        <h1 id={`${field.id}-title`}>{title}</h1>
        <p class="note" role="status">
          {note ?? ' '}
        </p>
        <PasswordInput
          id={field.id}
          label={field.label}
          hint={field.hint}
          autoComplete={field.autoComplete}
          required
          error={error}
          value={secret}
          onInput={setSecret}
        />
        <button type="submit" disabled={busy}>
          {button}
        </button>
        {children}
      </form>
      {after}
    </main>
  );
}
