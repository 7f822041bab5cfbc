// The API page's Duplicate and Delete buttons. Duplicate (Classic APIs) posts a copy with a new id and a listen path
// changed so it does not clash (api-copy.ts; while the dashboard refuses the listen path as taken, the next suffix is tried, up to 5), then opens it.
// Delete asks first; the dashboard's refusal (for example a policy still granting the API) is shown in the dialog.
import { useState } from 'preact/hooks';
import { ApiError, call } from '../api-client.ts';
import { duplicateDefinition } from '../api-copy.ts';
import { navigate } from '../router.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

export interface ApiActionsProps {
  /** The API's path on the dashboard (/api/apis/<id> or /api/apis/oas/<id>). */
  path: string;
  name: string;
  /** The Classic definition to copy; undefined for OAS APIs (no Duplicate button). */
  classic: Record<string, unknown> | undefined;
}

export function ApiActions({ path, name, classic }: ApiActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [copyProblem, setCopyProblem] = useState<string | undefined>();

  const duplicate = async (): Promise<void> => {
    setCopyProblem(undefined);
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        const { data } = await call<{ Meta: unknown }>('POST', '/api/apis', duplicateDefinition(classic!, attempt));
        if (typeof data.Meta === 'string') navigate('apis', data.Meta);
        return;
      } catch (e) {
        if (e instanceof ApiError && e.fields.some((f) => f.field === 'proxy.listen_path') && attempt < 5) continue;
        setCopyProblem(e instanceof Error ? e.message : String(e));
        return;
      }
    }
  };
  const remove = async (): Promise<void> => {
    try {
      await call('DELETE', path);
      navigate('apis');
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <>
      <div class="actions">
        {classic !== undefined && (
          <button type="button" class="secondary" onClick={() => void duplicate()}>
            Duplicate API
          </button>
        )}
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete API
        </button>
      </div>
      {copyProblem !== undefined && (
        <p class="problem" role="alert">
          Could not duplicate: {copyProblem}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Delete the API ${name}?`}
          confirmLabel="Delete"
          error={problem}
          onConfirm={() => void remove()}
          onCancel={() => {
            setConfirming(false);
            setProblem(undefined);
          }}
        >
          <p>Gateways stop serving it at their next sync; keys and policies granting it lose that access. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
