// The portal's content pages (GET/POST /api/portal/pages, PUT/DELETE /api/portal/pages/{id}, Tyk's page object):
// listed with their address, live and homepage state; created or edited in one form (title, slug, the Markdown
// content kept in the page's PageContent field, live, homepage; other fields of a page written by Tyk's clients
// are kept as they are); deleted after a confirmation. The portal's Main menu is edited below (portal-menu.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, errorAt } from '../api-client.ts';
import { ConfirmDialog } from '../parts/confirm-dialog.tsx';
import { Field } from '../parts/field.tsx';
import { FormAlert, Problem } from '../parts/problem.tsx';
import { PortalMenuEditor } from './portal-menu.tsx';

interface PortalPage {
  id: string;
  title: string;
  slug: string;
  fields: Record<string, string>;
  is_homepage: boolean;
  is_live: boolean;
  [field: string]: unknown;
}

interface Draft {
  id: string | undefined;
  title: string;
  slug: string;
  content: string;
  is_live: boolean;
  is_homepage: boolean;
  /** The page's other fields and settings, written back unchanged. */
  kept: PortalPage | undefined;
}

const EMPTY: Draft = { id: undefined, title: '', slug: '', content: '', is_live: true, is_homepage: false, kept: undefined };

export function PortalPagesPage({ writable, portalBase }: { writable: boolean; portalBase: string }) {
  const [pages, setPages] = useState<PortalPage[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [formError, setFormError] = useState<unknown>();
  const [saved, setSaved] = useState('');
  const [deleting, setDeleting] = useState<PortalPage | undefined>();
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const [reloads, setReloads] = useState(0);
  const titleInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    call<{ Data: PortalPage[] }>('GET', '/api/portal/pages?p=-2').then(
      ({ data }) => setPages(data.Data),
      (e: unknown) => setError(e),
    );
  }, [reloads]);

  if (error) return <Problem error={error} what="list the portal's pages" />;
  const set = (changes: Partial<Draft>): void => {
    setSaved('');
    setDraft({ ...draft, ...changes });
  };
  const fieldError = (field: string): string | undefined => errorAt(formError, field);
  const edit = (page: PortalPage): void => {
    setFormError(undefined);
    setSaved('');
    setDraft({
      id: page.id,
      title: page.title,
      slug: page.slug,
      content: page.fields.PageContent ?? '',
      is_live: page.is_live,
      is_homepage: page.is_homepage,
      kept: page,
    });
    titleInput.current?.focus();
  };
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    const { id: _id, org_id: _org, date_created: _created, ...kept }: Record<string, unknown> = draft.kept ?? {};
    const body = {
      ...kept,
      title: draft.title,
      slug: draft.slug,
      fields: { ...(draft.kept?.fields ?? {}), PageContent: draft.content },
      is_live: draft.is_live,
      is_homepage: draft.is_homepage,
    };
    try {
      if (draft.id === undefined) await call('POST', '/api/portal/pages', body);
      else await call('PUT', `/api/portal/pages/${encodeURIComponent(draft.id)}`, body);
      setSaved(`Saved "${draft.title}".`);
      setDraft(EMPTY);
      setReloads((n) => n + 1);
    } catch (e) {
      setFormError(e instanceof ApiError ? e : new Error(String(e)));
    }
  };
  const address = (page: PortalPage): string => (page.is_homepage ? portalBase : `${portalBase}${page.slug}/`);

  return (
    <section aria-labelledby="pages-title">
      <h1 id="pages-title">Portal pages</h1>
      <p class="count" role="status">
        {pages === undefined ? 'Loading the pages…' : `${pages.length} ${pages.length === 1 ? 'page' : 'pages'}`}
      </p>
      {pages !== undefined && pages.length > 0 && (
        <table class="list" aria-label="Portal pages">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Address</th>
              <th scope="col">State</th>
              {writable && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {pages.map((page) => (
              <tr key={page.id}>
                <td>{page.title}</td>
                <td>
                  <a href={address(page)} target="_blank" rel="noopener">
                    {page.is_homepage ? 'Home page' : `${page.slug}/`}
                  </a>
                </td>
                <td>{[page.is_live ? 'Live' : 'Not live', page.is_homepage ? 'homepage' : ''].filter(Boolean).join(', ')}</td>
                {writable && (
                  <td class="whole">
                    <button type="button" class="secondary" aria-label={`Edit ${page.title}`} onClick={() => edit(page)}>
                      Edit
                    </button>{' '}
                    <button type="button" class="secondary" aria-label={`Delete ${page.title}`} onClick={() => setDeleting(page)}>
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {writable && (
        <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="page-form-title">
          <h2 id="page-form-title">{draft.id === undefined ? 'New page' : `Edit "${draft.kept?.title ?? ''}"`}</h2>
          <Field id="page-title" label="Title" error={fieldError('title')}>
            {(d, invalid) => (
              <input
                id="page-title"
                ref={titleInput}
                value={draft.title}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => set({ title: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field id="page-slug" label="Slug" hint="The page's address in the portal, e.g. getting-started" error={fieldError('slug')}>
            {(d, invalid) => (
              <input id="page-slug" value={draft.slug} aria-describedby={d} aria-invalid={invalid} onInput={(e) => set({ slug: e.currentTarget.value })} />
            )}
          </Field>
          <Field id="page-content" label="Content (Markdown)" hint="Headings, emphasis, lists, links and code; HTML shows as text" error={fieldError('fields')}>
            {(d, invalid) => (
              <textarea
                id="page-content"
                rows={10}
                value={draft.content}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => set({ content: e.currentTarget.value })}
              />
            )}
          </Field>
          <label class="checks">
            <input type="checkbox" checked={draft.is_live} onChange={(e) => set({ is_live: e.currentTarget.checked })} /> Live (shown in the portal)
          </label>
          <label class="checks">
            <input type="checkbox" checked={draft.is_homepage} onChange={(e) => set({ is_homepage: e.currentTarget.checked })} /> The portal's home page
          </label>
          <FormAlert error={formError} />
          <div class="actions">
            <button type="submit">{draft.id === undefined ? 'Create the page' : 'Save the page'}</button>
            {draft.id !== undefined && (
              <button type="button" class="secondary" onClick={() => set(EMPTY)}>
                Cancel
              </button>
            )}
            <span role="status">{saved}</span>
          </div>
        </form>
      )}
      <PortalMenuEditor writable={writable} pages={pages ?? []} />
      {deleting !== undefined && (
        <ConfirmDialog
          title={`Delete the page "${deleting.title}"?`}
          confirmLabel="Delete"
          error={deleteError}
          onConfirm={() =>
            void call('DELETE', `/api/portal/pages/${encodeURIComponent(deleting.id)}`).then(
              () => {
                setDeleting(undefined);
                setDeleteError(undefined);
                setReloads((n) => n + 1);
              },
              (e: unknown) => setDeleteError(e instanceof Error ? e.message : String(e)),
            )
          }
          onCancel={() => {
            setDeleting(undefined);
            setDeleteError(undefined);
          }}
        >
          <p>The page leaves the portal at once; a menu item pointing at it then leads nowhere.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
