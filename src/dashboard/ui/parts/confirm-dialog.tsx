// A destructive action asked once more in a modal dialog: the question, what will happen, and two buttons. Focus
// starts on Cancel (so Enter never deletes by accident); Escape cancels. The caller shows a refusal in `error`.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export interface ConfirmDialogProps {
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  error?: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ title, confirmLabel, children, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
    cancel.current?.focus();
  }, []);
  return (
    <dialog ref={dialog} class="one-time confirm" aria-labelledby="confirm-title" aria-describedby="confirm-body" onClose={onCancel}>
      <h2 id="confirm-title">{title}</h2>
      <div id="confirm-body">{children}</div>
      {error !== undefined && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button ref={cancel} type="button" class="secondary" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
