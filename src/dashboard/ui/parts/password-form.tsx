// A user's password, for signing in with their e-mail address (POST /api/users/{id}/actions/reset, Tyk
// Dashboard's path): one's own (the Account page: the current password when one is set, and the new one) or, for
// a user manager, another user's (the Users page: the new one only; that user's sessions end). Each refusal at its
// field. No password stays in the page after submitting.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, errorAt } from '../api-client.ts';
import { PasswordInput } from './password-input.tsx';
import { FormAlert } from './problem.tsx';

/** `of`: another user (their id and name, and what to do once set); unset: the signed-in user's own password. */
export function PasswordForm({ userId, of }: { userId: string; of?: { name: string; onDone: (message: string) => void; onCancel: () => void } }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState('');
  const newPassword = useRef<HTMLInputElement>(null);
  // Opened for another user below the list: the focus goes to the one field to fill.
  useEffect(() => {
    if (of) newPassword.current?.focus();
  }, []);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const body = { new_password: next, ...(current !== '' && !of ? { current_password: current } : {}) };
    setCurrent('');
    setNext('');
    setError(undefined);
    setDone('');
    try {
      await call('POST', `/api/users/${encodeURIComponent(userId)}/actions/reset`, body);
      if (of) of.onDone(`Password of ${of.name} set; their sessions have ended.`);
      else setDone('Password set: you can sign in with your e-mail address and this password.');
    } catch (e) {
      setError(e);
    }
  };

  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="password-title">
      <h2 id="password-title">{of ? `Password of ${of.name}` : 'Your password'}</h2>
      {!of && (
        <p class="message ok" role="status">
          {done || ' '}
        </p>
      )}
      {!of && (
        <PasswordInput
          id="current-password"
          label="Current password"
          autoComplete="current-password"
          hint="Leave empty if you have not set one yet."
          error={errorAt(error, 'current_password')}
          value={current}
          onInput={setCurrent}
        />
      )}
      <PasswordInput
        id="new-password"
        label="New password"
        autoComplete="new-password"
        hint={of ? `8 to 72 characters. Tell ${of.name} yourself: it is not sent.` : '8 to 72 characters.'}
        error={errorAt(error, 'new_password')}
        value={next}
        onInput={setNext}
        inputRef={newPassword}
      />
      <FormAlert error={error} />
      <div class="actions">
        <button type="submit">Set password</button>
        {of && (
          <button type="button" class="secondary" onClick={of.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
