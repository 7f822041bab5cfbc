// The portal's Main menu (GET/PUT /api/portal/menus, Tyk's {menus: {Main: [{Title, URL}]}}): the items the portal's
// navigation shows before the catalogue, in order; each with a label and an address (a page's slug, any portal
// path, or an http(s) address), added, removed and saved together. Other menus written by Tyk's clients are kept.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, errorAt } from '../api-client.ts';
import { FormAlert, Problem } from '../parts/problem.tsx';

interface MenuItem {
  Title: string;
  URL: string;
}

interface MenusDocument {
  menus: Record<string, MenuItem[]>;
  is_active: boolean;
}

export function PortalMenuEditor({ writable, pages }: { writable: boolean; pages: { title: string; slug: string; is_homepage: boolean }[] }) {
  const [stored, setStored] = useState<MenusDocument | undefined>();
  const [items, setItems] = useState<MenuItem[]>([]);
  const [error, setError] = useState<unknown>();
  const [formError, setFormError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  /** The index of the item whose label to focus once rendered (one just added). */
  const focusItem = useRef<number | undefined>(undefined);

  useEffect(() => {
    call<MenusDocument>('GET', '/api/portal/menus').then(
      ({ data }) => {
        setStored(data);
        setItems(data.menus.Main ?? []);
      },
      (e: unknown) => setError(e),
    );
  }, []);

  useLayoutEffect(() => {
    if (focusItem.current === undefined) return;
    document.getElementById(`menu-title-${focusItem.current}`)?.focus();
    focusItem.current = undefined;
  }, [items]);

  if (error) return <Problem error={error} what="read the portal's menu" />;
  if (stored === undefined) return <p aria-busy="true">Loading the menu…</p>;
  const change = (index: number, changes: Partial<MenuItem>): void => {
    setSaved(false);
    setItems(items.map((item, i) => (i === index ? { ...item, ...changes } : item)));
  };
  const add = (item: MenuItem): void => {
    setSaved(false);
    focusItem.current = items.length;
    setItems([...items, item]);
  };
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFormError(undefined);
    try {
      await call('PUT', '/api/portal/menus', { menus: { ...stored.menus, Main: items }, is_active: true });
      setSaved(true);
    } catch (e) {
      setFormError(e instanceof ApiError ? e : new Error(String(e)));
    }
  };
  const linkable = pages.filter((page) => page.slug !== '' && !items.some((item) => item.URL === `${page.slug}/`));

  return (
    <form class="card" onSubmit={(e) => void save(e)} noValidate aria-labelledby="menu-title">
      <h2 id="menu-title">Portal menu</h2>
      <p>The portal's navigation shows these links, in this order, before the API catalogue.</p>
      {items.length === 0 && <p>The menu is empty.</p>}
      <fieldset disabled={!writable}>
        <legend>Menu items</legend>
        {items.map((item, index) => (
          <div class="pair" key={index}>
            <div class="field">
              <label for={`menu-title-${index}`}>Label of item {index + 1}</label>
              <input id={`menu-title-${index}`} value={item.Title} onInput={(e) => change(index, { Title: e.currentTarget.value })} />
            </div>
            <div class="field">
              <label for={`menu-url-${index}`}>Address of item {index + 1}</label>
              <input id={`menu-url-${index}`} value={item.URL} onInput={(e) => change(index, { URL: e.currentTarget.value })} />
            </div>
            {writable && (
              <button
                type="button"
                class="secondary"
                aria-label={`Remove item ${index + 1} (${item.Title || 'no label'})`}
                onClick={() => {
                  setSaved(false);
                  setItems(items.filter((_, i) => i !== index));
                }}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        {errorAt(formError, 'menus') !== undefined && (
          <p class="field-error" role="alert">
            {errorAt(formError, 'menus')}
          </p>
        )}
      </fieldset>
      {writable && (
        <div class="actions">
          {linkable.map((page) => (
            <button key={page.slug} type="button" class="secondary" onClick={() => add({ Title: page.title, URL: `${page.slug}/` })}>
              Add "{page.title}"
            </button>
          ))}
          <button type="button" class="secondary" onClick={() => add({ Title: '', URL: '' })}>
            Add a link
          </button>
        </div>
      )}
      <FormAlert error={formError} />
      {writable && (
        <div class="actions">
          <button type="submit">Save the menu</button>
          <span role="status">{saved ? 'Saved: the portal shows this menu from its next page.' : ''}</span>
        </div>
      )}
    </form>
  );
}
