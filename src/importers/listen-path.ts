// Listen paths of imported APIs: `/<slug>/` from the API's name, or an OpenAPI 2.0 basePath when it is a usable
// literal path. The gateway normalises both forms (`/petstore/` and `/petstore` are one API).

/** Lower-case words joined by '-': `Swagger Petstore - OpenAPI 3.0` -> `swagger-petstore-openapi-3-0`. */
export function slug(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  return words.join('-') || 'imported-api';
}

export function listenPathFromName(name: string): string {
  return `/${slug(name)}/`;
}

/** The basePath as a listen path, or undefined when it is the root or not a literal path the gateway accepts. */
export function listenPathFromBasePath(basePath: string | undefined): string | undefined {
  if (!basePath) return undefined;
  const segments = basePath.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return undefined;
  if (!basePath.startsWith('/') || /[{}?#%\\\s]/.test(basePath) || segments.some((s) => s === '.' || s === '..')) return undefined;
  return `/${segments.join('/')}/`;
}
