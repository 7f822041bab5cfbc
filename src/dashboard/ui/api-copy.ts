// A Classic API definition duplicated: no id (the dashboard makes a new one), the name marked as a copy and the
// listen path changed so the copy does not clash with the original (`/orders/` -> `/orders-copy/`, then
// `/orders-copy-2/` on the next attempt). Pure.
type Definition = Record<string, unknown>;

/** The listen path of the attempt-th copy (1, 2, ...). */
export function copyListenPath(listenPath: string, attempt: number): string {
  const trimmed = listenPath.replace(/\/+$/, '');
  const suffix = attempt <= 1 ? '-copy' : `-copy-${attempt}`;
  return `${trimmed === '' ? '/root' : trimmed}${suffix}${listenPath.endsWith('/') ? '/' : ''}`;
}

export function duplicateDefinition(definition: Definition, attempt: number): Definition {
  const { api_id: _apiId, id: _id, _id: _mongoId, ...rest } = definition;
  const proxy = typeof rest.proxy === 'object' && rest.proxy !== null ? (rest.proxy as Definition) : {};
  const listenPath = typeof proxy.listen_path === 'string' ? proxy.listen_path : '/';
  const name = typeof rest.name === 'string' ? rest.name : 'API';
  return { ...rest, name: `${name} (copy${attempt <= 1 ? '' : ` ${attempt}`})`, proxy: { ...proxy, listen_path: copyListenPath(listenPath, attempt) } };
}
