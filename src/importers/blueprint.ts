// API Blueprint documents -> ImportedApi. The input is the API Blueprint AST in its JSON serialization (what
// snowcrash/drafter/protagonist produce, AST versions 1.0 to 4.0: `resourceGroups[].resources[].actions[]`), or a
// parse result wrapping it in `ast`; the Markdown source and API Elements (refract) documents are refused.
//   - name: the blueprint's name (`# <API name>`), else `Imported API Blueprint`; version: the option, else
//     `Default` (a blueprint has no version of its own);
//   - upstream: the option, else the HOST metadata when it is an absolute URL; listen path `/<slug of name>/`;
//   - endpoints: every action of every resource of every group, on the action's URI template when it has one,
//     else the resource's. URI templates become gateway paths: `{id}`, `{+path}` are wildcards, `{/x}` and `{.x}`
//     keep their separator, query (`{?q}`, `{&q}`) and fragment (`{#f}`) expressions are dropped;
//   - each endpoint's example is the first response of its first example: code from the response's name (200 when
//     it is not a status code), body, and every header (a repeated header is joined with ", "). With as_mock the
//     endpoint answers it as a mock reply; without, the endpoint is passed to the upstream. An action without an
//     example response is passed to the upstream even with as_mock (a warning names it).
import { z } from 'zod';
import { ImportError } from './errors.ts';
import { versionNameFor, type ImportedApi, type ImportedEndpoint, type ImportedReply } from './imported-api.ts';
import { isRecord, parseShape, readJson } from './json-document.ts';
import { listenPathFromName } from './listen-path.ts';
import type { ImportOptions } from './options.ts';
import { checkedUpstreamOption, upstreamProblem } from './upstream.ts';

const FALLBACK_NAME = 'Imported API Blueprint';

const Header = z.object({ name: z.string(), value: z.string() });
const Payload = z.object({
  name: z.string().optional(),
  headers: z.array(Header).optional(),
  body: z.string().optional(),
});
const Example = z.object({ responses: z.array(Payload).optional() });
const Action = z.object({
  name: z.string().optional(),
  method: z.string().regex(/^[A-Za-z]+$/, 'expected an HTTP method'),
  attributes: z.object({ uriTemplate: z.string().optional() }).optional(),
  examples: z.array(Example).optional(),
});
const Resource = z.object({
  name: z.string().optional(),
  uriTemplate: z.string(),
  actions: z.array(Action).optional(),
});
const Group = z.object({ name: z.string().optional(), resources: z.array(Resource).optional() });
const Metadata = z.union([z.array(z.object({ name: z.string(), value: z.string() })), z.record(z.string(), z.object({ value: z.string() }))]);
const Blueprint = z.object({
  name: z.string().optional(),
  metadata: Metadata.optional(),
  resourceGroups: z.array(Group),
});

/** Reads an API Blueprint AST (JSON text or decoded value). */
export function readBlueprint(document: unknown, options: ImportOptions): ImportedApi {
  let doc = readJson(document, 'API Blueprint');
  if (isRecord(doc) && isRecord(doc.ast)) doc = doc.ast;
  if (!isRecord(doc)) throw new ImportError('document', 'not an API Blueprint AST: expected a JSON object');
  if (doc.element === 'parseResult') {
    throw new ImportError(
      'document',
      'API Elements (refract) documents are not supported: give the API Blueprint AST (JSON serialization, with resourceGroups)',
    );
  }
  if (!Array.isArray(doc.resourceGroups)) throw new ImportError('document', 'not an API Blueprint AST: resourceGroups is missing');
  const blueprint = parseShape(Blueprint, doc, 'API Blueprint AST');
  const warnings: string[] = [];

  let name = blueprint.name?.trim() ?? '';
  if (!name) {
    name = FALLBACK_NAME;
    warnings.push(`the blueprint has no name: the API is called "${name}"`);
  }
  const host = metadataValue(blueprint.metadata, 'HOST');
  let upstreamUrl: string | undefined;
  let upstreamHint = 'the blueprint has no HOST metadata';
  if (options.upstreamUrl !== undefined) {
    upstreamUrl = checkedUpstreamOption(options.upstreamUrl);
  } else if (host !== undefined) {
    const problem = upstreamProblem(host);
    if (problem) upstreamHint = `its HOST metadata ${problem}: ${host}`;
    else upstreamUrl = host.trim();
  }

  const endpoints: ImportedEndpoint[] = [];
  for (const group of blueprint.resourceGroups) {
    for (const resource of group.resources ?? []) {
      for (const action of resource.actions ?? []) {
        const template = action.attributes?.uriTemplate || resource.uriTemplate;
        const path = pathFromUriTemplate(template);
        const method = action.method.toUpperCase();
        const reply = firstResponse(action);
        if (options.asMock && !reply) warnings.push(`${method} ${path} has no example response: it is passed to the upstream, not mocked`);
        endpoints.push({ path, method, ...(options.asMock && reply ? { reply } : {}) });
      }
    }
  }
  if (endpoints.length === 0) warnings.push('the blueprint describes no actions: the version has no endpoint list, so every path is forwarded');
  return {
    format: 'API Blueprint',
    name,
    versionName: versionNameFor(options),
    upstreamUrl,
    upstreamHint,
    listenPath: listenPathFromName(name),
    endpoints,
    warnings,
  };
}

/** An RFC 6570 URI template as a gateway endpoint path (see the file comment). */
export function pathFromUriTemplate(template: string): string {
  const expanded = template.trim().replace(/\{([^}]*)\}/g, (_whole, expression: string) => {
    const operator = /^[+#./;?&]/.test(expression) ? expression[0] : '';
    const variable =
      (operator ? expression.slice(1) : expression)
        .split(',')[0]!
        .replace(/[*]|:\d+$/g, '')
        .trim() || 'param';
    switch (operator) {
      case '?':
      case '&':
      case '#':
        return '';
      case '/':
        return `/{${variable}}`;
      case '.':
        return `.{${variable}}`;
      case ';':
        return `;{${variable}}`;
      default:
        return `{${variable}}`;
    }
  });
  const path = expanded.split(/[?#]/)[0]!;
  return path.startsWith('/') ? path : `/${path}`;
}

function firstResponse(action: z.infer<typeof Action>): ImportedReply | undefined {
  const response = action.examples?.[0]?.responses?.[0];
  if (!response) return undefined;
  const status = Number(response.name?.trim());
  const code = Number.isInteger(status) && status >= 100 && status <= 599 ? status : 200;
  const headers: Record<string, string> = {};
  for (const header of response.headers ?? []) {
    const existing = Object.keys(headers).find((key) => key.toLowerCase() === header.name.toLowerCase());
    if (existing) headers[existing] = `${headers[existing]}, ${header.value}`;
    else headers[header.name] = header.value;
  }
  return { code, body: response.body ?? '', headers };
}

function metadataValue(metadata: z.infer<typeof Metadata> | undefined, key: string): string | undefined {
  if (!metadata) return undefined;
  if (Array.isArray(metadata)) return metadata.find((entry) => entry.name.toUpperCase() === key)?.value;
  const found = Object.entries(metadata).find(([name]) => name.toUpperCase() === key);
  return found?.[1].value;
}
