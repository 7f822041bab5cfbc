// What a caller gives an import and what it gets back. Shared by every format (OpenAPI/Swagger, API Blueprint,
// WSDL) and by both callers: the gateway command's import flags and the dashboard's /api/import endpoints.
import type { ClassicApiDefinition } from '../domain/classic.ts';

export interface ImportOptions {
  /** org_id of a new definition (--org-id). */
  orgId?: string;
  /**
   * The upstream (--upstream-target, upstream_url): the API's base URL, to which requests are forwarded with the
   * listen path removed. Required for OpenAPI 2.0 documents; otherwise it overrides what the document says.
   */
  upstreamUrl?: string;
  /** Name of the imported version (--as-version, version_name); default: the document's version, else `Default`. */
  versionName?: string;
  /** API Blueprint only: example responses become mock replies (--as-mock, as_mock). */
  asMock?: boolean;
  /** api_id of a new definition; omitted, the gateway or dashboard assigns one when the API is created. */
  apiId?: string;
  /**
   * At most this many operations (path x method endpoints) in the document; more is an ImportError about
   * `maxOperations`. Default: no limit (the gateway command); the dashboard sets import_max_operations.
   */
  maxOperations?: number;
}

/** WSDL only: which service and port to import (default: the first service, its first SOAP port). */
export interface WsdlSelection {
  serviceName?: string;
  portName?: string;
}

export interface ImportResult {
  /** A Classic API definition (the wire format of POST /gw/apis and /api/apis). */
  definition: ClassicApiDefinition;
  /** What the user should know: defaults chosen, parts of the document not imported. */
  warnings: string[];
}
