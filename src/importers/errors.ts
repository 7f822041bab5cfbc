// ImportError: why an import was refused, naming the parameter at fault. The same importers serve the gateway
// command (flags such as --upstream-target) and the dashboard's /api/import endpoints (JSON fields such as
// upstream_url), so an error records which parameter it is about and each caller words it in its own terms with
// describe(); the default message names both.

/** The parameters of an import, by their names in ImportOptions (plus the document and the existing API). */
export type ImportParameter =
  'document' | 'upstreamUrl' | 'versionName' | 'asMock' | 'apiId' | 'orgId' | 'serviceName' | 'portName' | 'existingApi' | 'maxOperations';

/** The gateway command's flags. */
export const CLI_FLAGS: Readonly<Record<ImportParameter, string>> = {
  document: 'the imported document',
  upstreamUrl: '--upstream-target',
  versionName: '--as-version',
  asMock: '--as-mock',
  apiId: '--for-api',
  orgId: '--org-id',
  serviceName: '--wsdl-service',
  portName: '--wsdl-port',
  existingApi: '--for-api',
  maxOperations: 'the operations limit',
};

/** The dashboard's JSON fields (/api/import/swagger/, /api/import/blueprint/). */
export const DASHBOARD_FIELDS: Readonly<Record<ImportParameter, string>> = {
  document: 'the imported document',
  upstreamUrl: 'upstream_url',
  versionName: 'version_name',
  asMock: 'as_mock',
  apiId: 'api_id',
  orgId: 'org_id',
  serviceName: 'service_name',
  portName: 'port_name',
  existingApi: 'api_id',
  maxOperations: 'import_max_operations',
};

const PLACEHOLDER = '{param}';

export class ImportError extends Error {
  override readonly name = 'ImportError';
  /** The parameter at fault. */
  readonly parameter: ImportParameter;
  readonly #template: string;

  /** `template` may contain `{param}`, replaced by the parameter's name where the user gave it. */
  constructor(parameter: ImportParameter, template: string) {
    super(render(template, `${DASHBOARD_FIELDS[parameter]} (${CLI_FLAGS[parameter]})`, parameter));
    this.parameter = parameter;
    this.#template = template;
  }

  /** What rebuilds this error elsewhere (`new ImportError(parameter, template)`), e.g. across a worker thread. */
  parts(): { parameter: ImportParameter; template: string } {
    return { parameter: this.parameter, template: this.#template };
  }

  /** The message with the parameter called by the caller's name for it (CLI_FLAGS or DASHBOARD_FIELDS). */
  describe(names: Readonly<Record<ImportParameter, string>>): string {
    return render(this.#template, names[this.parameter], this.parameter);
  }
}

function render(template: string, name: string, parameter: ImportParameter): string {
  if (template.includes(PLACEHOLDER)) return template.replaceAll(PLACEHOLDER, name);
  return parameter === 'document' ? template : `${template} (${name})`;
}
