// An OAS streams API document for tests: key authentication (an apiKey scheme on the `authorization` header) on its
// listen path, an unused upstream, and the given streams (x-gw-streaming). Values only; tests post it to a gateway,
// a dashboard, or put it in a ConfigMap.
export interface StreamsApiOptions {
  name: string;
  listenPath: string;
  /** x-gw-streaming.streams */
  streams: Record<string, unknown>;
  /** info.id (default: none, for the operator's deterministic id; a gateway needs one). */
  id?: string;
  /** More x-gw-api-gateway sections (middleware, ...). */
  extension?: Record<string, unknown>;
}

export function keyedStreamsApi(options: StreamsApiOptions): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: options.name, version: '1' },
    components: { securitySchemes: { key: { type: 'apiKey', name: 'authorization', in: 'header' } } },
    security: [{ key: [] }],
    paths: {},
    'x-gw-api-gateway': {
      info: { ...(options.id ? { id: options.id } : {}), name: options.name, state: { active: true } },
      upstream: { url: 'http://127.0.0.1:9' },
      server: { listenPath: { value: options.listenPath, strip: true }, authentication: { enabled: true, securitySchemes: { key: { enabled: true } } } },
      ...options.extension,
    },
    'x-gw-streaming': { streams: options.streams },
  };
}
