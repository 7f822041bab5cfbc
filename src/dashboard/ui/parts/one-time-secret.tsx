// A secret shown once (a new key, a user's new access key) in a modal dialog: it opens over the page, so nothing
// below it moves (no layout shift); focus moves into it; Escape or the button closes it. The secret is never
// kept after the dialog closes.
import { useEffect, useRef } from 'preact/hooks';

export function OneTimeSecret({ title, value, onClose }: { title: string; value: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  return (
    <dialog ref={dialog} class="one-time" aria-labelledby="one-time-title" onClose={onClose}>
      <h2 id="one-time-title">{title}</h2>
      <p>
        <code id="new-key">{value}</code>
      </p>
      <p>Copy it now: it is shown only once and cannot be retrieved later.</p>
      <div class="actions">
        <button type="button" onClick={() => dialog.current?.close()}>
          I have copied it
        </button>
      </div>
    </dialog>
  );
}
