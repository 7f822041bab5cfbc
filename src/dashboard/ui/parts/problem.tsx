// How a failed request is shown: a refused permission is a page that says what is missing and who can grant it
// (never a blank), a missing object says so, anything else is an alert with the dashboard's message; under a
// form, a failure that names no field.
import { ApiError, generalError } from '../api-client.ts';

/** Under a form: the failure of its last submission when it names no field (field errors sit at their inputs). */
export function FormAlert({ error }: { error: unknown }) {
  const message = generalError(error);
  return message === undefined ? null : (
    <p class="problem" role="alert">
      {message}
    </p>
  );
}

export function Problem({ error, what }: { error: unknown; what: string }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <section class="denied" role="alert" aria-labelledby="denied-title">
        <h2 id="denied-title">Access denied</h2>
        <p>
          You cannot {what}: {error.message}.
        </p>
        <p>Your user's permissions in this organisation do not include it. An administrator can grant it by changing your user's permissions.</p>
      </section>
    );
  }
  if (error instanceof ApiError && error.status === 404) {
    return (
      <section class="problem" role="alert">
        <h2>Not found</h2>
        <p>{error.message}. It may have been deleted, or it belongs to another organisation.</p>
      </section>
    );
  }
  return (
    <p class="problem" role="alert">
      Could not {what}: {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
