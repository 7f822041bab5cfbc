// Large import documents for the dashboard's bounded-import tests and bench/import-block.ts: a Swagger 2.0 JSON
// document with N paths (the 60 000-path, ~4 MB case) and an OpenAPI 3.0 YAML document with N operations
// padded with descriptions to about the bytes asked for (YAML is the slowest format to decode).

/** Swagger 2.0 JSON text with `paths` paths of one GET each. */
export function swaggerWithPaths(paths: number): string {
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < paths; i++) entries[`/resource${i}/{id}/items`] = { get: { summary: `item ${i}` } };
  return JSON.stringify({ swagger: '2.0', info: { title: `Large ${paths}`, version: '1' }, basePath: `/large${paths}`, paths: entries });
}

/** OpenAPI 3.0 YAML text: `operations` GET operations, each described at length so the text is about `bytes` long. */
export function openApiYaml(operations: number, bytes: number, title = 'Large YAML'): string {
  const pad = Math.max(0, Math.floor(bytes / operations) - 120);
  const description = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(pad / 27)).slice(0, pad);
  const lines = ['openapi: 3.0.3', 'info:', `  title: ${title}`, '  version: "1"', 'servers:', '  - url: http://large.internal:8080', 'paths:'];
  for (let i = 0; i < operations; i++) {
    lines.push(
      `  /things${i}/{id}:`,
      '    get:',
      `      summary: thing ${i}`,
      `      description: ${description}`,
      '      responses:',
      "        '200':",
      '          description: ok',
    );
  }
  return `${lines.join('\n')}\n`;
}
