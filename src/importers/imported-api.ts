// ImportedApi: what an importer reads from a document, before it becomes a Classic definition or a new version
// of one. Every format produces this; definition.ts and version.ts turn it into Classic JSON. Also the one rule
// for naming the imported version, shared by the formats.

/** A mock reply: the status code, body and headers answered without calling the upstream. */
export interface ImportedReply {
  code: number;
  body: string;
  headers: Record<string, string>;
}

/** One method of one endpoint path (`{name}` segments are wildcards, the gateway's form). */
export interface ImportedEndpoint {
  path: string;
  method: string;
  reply?: ImportedReply;
}

export interface ImportedApi {
  /** The document's kind, for messages: `OpenAPI 2.0`, `OpenAPI 3.0`, `API Blueprint`, `WSDL`. */
  format: string;
  name: string;
  versionName: string;
  /** The upstream: the option, else what the document names; undefined when neither gives a usable URL. */
  upstreamUrl: string | undefined;
  /** Why the document gives no usable upstream (shown when one is required and the option is missing). */
  upstreamHint: string;
  listenPath: string;
  endpoints: ImportedEndpoint[];
  warnings: string[];
}

/** Name of a version when neither the option nor the document gives one. */
export const DEFAULT_VERSION_NAME = 'Default';

/** The option (--as-version, version_name), else the document's version, else `Default`. */
export function versionNameFor(options: { versionName?: string }, documentVersion?: string | number): string {
  const given = options.versionName?.trim();
  if (given) return given;
  const fromDocument = documentVersion === undefined ? '' : String(documentVersion).trim();
  return fromDocument || DEFAULT_VERSION_NAME;
}
